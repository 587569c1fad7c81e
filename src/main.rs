use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = bnsl::cli::Cli::parse();
    match bnsl::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
