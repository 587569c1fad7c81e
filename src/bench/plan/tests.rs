use super::*;

/// A folder with score files `a.jkl`, `b.jkl`, `sub/c.jkl`, an optima table and the plan
/// text written as `plan.toml`.
fn folder(plan: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    for f in ["a.jkl", "b.jkl", "sub/c.jkl"] {
        std::fs::write(dir.path().join(f), "1\nx 1\n0.0 0\n").expect("write");
    }
    std::fs::write(
        dir.path().join("optima.csv"),
        "instance,score,optimum,source\nfiles/a.jkl,BDeu,-1.5,x\n\"sub/c.jkl\",\"BIC, palim 3\",-7,y\nb.jkl,BDeu,n/a,z\n",
    )
    .expect("write");
    let path = dir.path().join("plan.toml");
    std::fs::write(&path, plan).expect("write");
    (dir, path)
}

const PLAN: &str = r#"
name = "study"
time_limit = 20
seeds = [1, 2]

[[instances]]
files = ["*.jkl", "sub/*.jkl"]
optima = "optima.csv"

[[methods]]
name = "ilp-{backend}"
args = ["--method", "ilp", "--backend", "{backend}", "--certificate", "{run_dir}/cert.json"]
matrix = { backend = ["scip", "highs"] }

[[methods]]
name = "dp"
args = ["--method", "dp"]
seeded = false
instances = ["a*"]

[[methods]]
name = "peer"
command = ["peer-solver", "{instance}", "{time_limit}", "{instance_name}", "{seed}"]
score = 'score is (\S+)'
optimal = 'proved'
"#;

#[test]
fn a_plan_expands_into_its_runs_in_order() {
    let (_dir, path) = folder(PLAN);
    let plan = read_plan(&path).expect("a valid plan");
    assert_eq!(plan.name, "study");
    assert_eq!(plan.kill_after, 20.0 * 1.1 + 10.0);
    let names: Vec<&str> = plan.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["ilp-scip", "ilp-highs", "dp", "peer"]);
    let instances: Vec<&str> = plan.instances.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(instances, ["a", "b", "c"]);
    let runs = plan.runs();
    // a: 4 methods × 2 seeds; b and c: 3 methods (dp only on a*) × 2 seeds.
    assert_eq!(runs.len(), 8 + 6 + 6);
    assert_eq!(runs[0].key, "a/ilp-scip/1");
    assert_eq!(runs[1].key, "a/ilp-scip/2");
    assert_eq!(runs[19].key, "c/peer/2");
    assert!(runs.iter().enumerate().all(|(i, r)| r.index == i));
}

#[test]
fn known_optima_are_matched_by_path_suffix() {
    let (_dir, path) = folder(PLAN);
    let plan = read_plan(&path).expect("a valid plan");
    let optimum = |name: &str| {
        plan.instances
            .iter()
            .find(|i| i.name == name)
            .unwrap()
            .known_optimum
    };
    // `files/a.jkl` is not a suffix of the path of a.jkl; `b.jkl`'s optimum is no number.
    assert_eq!(optimum("a"), None);
    assert_eq!(optimum("b"), None);
    assert_eq!(optimum("c"), Some(-7.0));
}

#[test]
fn command_lines_fill_the_placeholders() {
    let (_dir, path) = folder(PLAN);
    let plan = read_plan(&path).expect("a valid plan");
    let runs = plan.runs();
    let run_dir = Path::new("/results/runs/x");
    let scip = plan
        .command_line(&runs[1], run_dir, Path::new("/bin/bnsl"))
        .unwrap();
    let expected_tail = [
        "--method",
        "ilp",
        "--backend",
        "scip",
        "--certificate",
        "/results/runs/x/cert.json",
        "--json",
        "--time-limit",
        "20",
        "--seed",
        "2",
    ];
    assert_eq!(scip[0], "/bin/bnsl");
    assert_eq!(scip[1], "learn");
    assert!(scip[2].ends_with("a.jkl"));
    assert_eq!(&scip[3..], expected_tail);
    let dp = runs.iter().find(|r| r.method == "dp").unwrap();
    let dp = plan.command_line(dp, run_dir, Path::new("bnsl")).unwrap();
    assert!(
        !dp.contains(&"--seed".to_string()),
        "dp is not seeded: {dp:?}"
    );
    let peer = runs.iter().find(|r| r.key == "b/peer/2").unwrap();
    let peer = plan.command_line(peer, run_dir, Path::new("bnsl")).unwrap();
    assert_eq!(peer[0], "peer-solver");
    assert!(peer[1].ends_with("b.jkl"));
    assert_eq!(&peer[2..], ["20", "b", "2"]);
}

#[test]
fn environment_variables_fill_env_placeholders() {
    let path = Path::new("plan.toml");
    std::env::set_var("BNSL_PLAN_TEST_VALUE", "/opt/peer");
    assert_eq!(
        fill_env(path, "{env:BNSL_PLAN_TEST_VALUE}/bin").unwrap(),
        "/opt/peer/bin"
    );
    let unset = fill_env(path, "{env:BNSL_PLAN_TEST_UNSET}")
        .unwrap_err()
        .to_string();
    assert!(
        unset.contains("BNSL_PLAN_TEST_UNSET") && unset.contains("not set"),
        "{unset}"
    );
    assert!(fill_env(path, "{env:OPEN").is_err());
}

/// The error of a plan text, with the plan's folder.
fn error_of(plan: &str) -> String {
    let (_dir, path) = folder(plan);
    read_plan(&path).expect_err("an invalid plan").to_string()
}

const HEAD: &str = "name = \"s\"\ntime_limit = 5\n[[instances]]\nfiles = [\"*.jkl\"]\n";

#[test]
fn syntax_errors_name_the_line() {
    let e = error_of("name = \"s\"\ntime_limit = 5\nbogus = 3\n");
    assert!(e.contains("plan.toml:3:") && e.contains("bogus"), "{e}");
    let e = error_of("name = \"s\"\ntime_limit = \"five\"\n");
    assert!(e.contains("plan.toml:2:"), "{e}");
}

#[test]
fn invalid_plans_are_refused_with_their_cause() {
    let cases = [
        ("name = \"s\"\ntime_limit = 0\n[[instances]]\nfiles = [\"*.jkl\"]\n[[methods]]\nname = \"m\"\nargs = []\n", "time_limit"),
        (&format!("{HEAD}kill_after = 1\n"), "kill_after"),
        (&format!("seeds = []\n{HEAD}[[methods]]\nname = \"m\"\nargs = []\n"), "seeds"),
        // Found by the `plan` fuzz target: two runs of one key.
        (&format!("seeds = [2, 2]\n{HEAD}[[methods]]\nname = \"m\"\nargs = []\n"), "seed 2 is given twice"),
        (HEAD, "no [[methods]]"),
        ("name = \"s\"\ntime_limit = 5\n[[methods]]\nname = \"m\"\nargs = []\n", "no [[instances]]"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\nargs = []\n[[methods]]\nname = \"m\"\nargs = [\"-x\"]\n"), "two methods are named `m`"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\n"), "either args"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\nargs = []\ncommand = [\"x\"]\n"), "either args"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\ncommand = [\"x\"]\n"), "needs score"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\ncommand = [\"x\"]\nscore = \"(unclosed\"\n"), "score:"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\nargs = []\nscore = \"x\"\n"), "outside program"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\ncommand = [\"x\"]\nscore = \"x\"\nseeded = true\n"), "for bnsl runs"),
        (&format!("{HEAD}[[methods]]\nname = \"m/{{v}}\"\nargs = []\nmatrix = {{ v = [1] }}\n"), "has a `/`"),
        (&format!("{HEAD}[[methods]]\nname = \"m\"\nargs = []\nmatrix = {{ v = [] }}\n"), "no values"),
        (&format!("{HEAD}[[methods]]\nname = \"m{{a}}{{b}}{{c}}\"\nargs = []\nmatrix = {{ a = [{t}], b = [{t}], c = [{t}] }}\n", t = ["1"; 101].join(",")), "more than 1000000 methods"),
        (&format!("seeds = [{}]\n{HEAD}[[methods]]\nname = \"m{{a}}\"\nargs = []\nmatrix = {{ a = [{}] }}\n", (0..1001).map(|i| i.to_string()).collect::<Vec<_>>().join(","), (0..1000).map(|i| i.to_string()).collect::<Vec<_>>().join(",")), "more than 1000000 runs"),
        ("name = \"s\"\ntime_limit = 5\n[[instances]]\nfiles = [\"*.nothing\"]\n[[methods]]\nname = \"m\"\nargs = []\n", "matches no file"),
        ("name = \"s\"\ntime_limit = 5\n[[instances]]\nfiles = [\"*.jkl\", \"sub/a.jkl\"]\n[[methods]]\nname = \"m\"\nargs = []\n", "matches no file"),
    ];
    for (plan, cause) in cases {
        let e = error_of(plan);
        assert!(
            e.contains(cause),
            "expected `{cause}` in: {e}\nplan:\n{plan}"
        );
        assert!(e.contains("plan.toml"), "the error names the file: {e}");
    }
}

#[test]
fn two_files_of_one_name_are_refused() {
    let (dir, path) = folder(
        "name = \"s\"\ntime_limit = 5\n[[instances]]\nfiles = [\"*.jkl\", \"sub/*.jkl\"]\n[[methods]]\nname = \"m\"\nargs = []\n",
    );
    std::fs::write(dir.path().join("sub/a.jkl"), "").unwrap();
    let e = read_plan(&path).unwrap_err().to_string();
    assert!(e.contains("two instances are named `a`"), "{e}");
}

#[test]
fn matrix_values_cross() {
    let (_dir, path) = folder(&format!(
        "{HEAD}[[methods]]\nname = \"{{b}}-{{f}}\"\nargs = [\"{{b}}\", \"{{f}}\"]\nmatrix = {{ b = [\"x\", \"y\"], f = [1, 2.5, true] }}\n"
    ));
    let plan = read_plan(&path).unwrap();
    let names: Vec<&str> = plan.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["x-1", "x-2.5", "x-true", "y-1", "y-2.5", "y-true"]);
}
