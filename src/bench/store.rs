//! A study's result folder: `results.jsonl` (one [`RunRecord`] per line, appended as runs
//! finish: the record of truth), `results.csv` (the same rows, rewritten from the JSONL
//! when a study resumes), `machines.jsonl` (one [`MachineInfo`] per start of the study
//! on a machine) and `runs/` (a folder per run for the files it writes).

use super::machine::MachineInfo;
use super::record::{RunRecord, CSV_COLUMNS};
use crate::error::InputError;
use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The name of the results file in a result folder.
pub const RESULTS: &str = "results.jsonl";
/// The name of the CSV file.
pub const CSV: &str = "results.csv";
/// The name of the machine records file.
pub const MACHINES: &str = "machines.jsonl";

/// An open result folder.
pub struct ResultStore {
    dir: PathBuf,
    records: Vec<RunRecord>,
    jsonl: File,
    csv: File,
}

impl ResultStore {
    /// Opens (or creates) the folder `dir`, reading the records already there.
    pub fn open(dir: &Path) -> Result<Self, InputError> {
        std::fs::create_dir_all(dir).map_err(|e| InputError::io(dir, e))?;
        let results = dir.join(RESULTS);
        let records = if results.exists() {
            read_records(&results)?
        } else {
            Vec::new()
        };
        // Rewritten from what was read, so that a line cut short is gone before the
        // next record is appended.
        write_jsonl(&results, &records)?;
        let jsonl = append_to(&results)?;
        let csv_path = dir.join(CSV);
        write_csv(&csv_path, &records)?;
        let csv = append_to(&csv_path)?;
        Ok(ResultStore {
            dir: dir.to_path_buf(),
            records,
            jsonl,
            csv,
        })
    }

    /// The keys of the runs already recorded.
    pub fn done(&self) -> HashSet<String> {
        self.records.iter().map(|r| r.key.clone()).collect()
    }

    /// The records so far.
    pub fn records(&self) -> &[RunRecord] {
        &self.records
    }

    /// The folder of one run's own files (`runs/INSTANCE/METHOD/SEED`), created.
    pub fn run_dir(&self, key: &str) -> Result<PathBuf, InputError> {
        let dir = self.dir.join("runs").join(key);
        std::fs::create_dir_all(&dir).map_err(|e| InputError::io(&dir, e))?;
        Ok(dir)
    }

    /// Keeps a run's standard output and error in its folder (`stdout.txt`,
    /// `stderr.txt`), for what the record does not hold: a solver's log, bnsl's whole
    /// JSON (its `bound_history`, say).
    pub fn keep_output(
        &self,
        run_dir: &Path,
        stdout: &str,
        stderr: &str,
    ) -> Result<(), InputError> {
        for (name, text) in [("stdout.txt", stdout), ("stderr.txt", stderr)] {
            let path = run_dir.join(name);
            std::fs::write(&path, text).map_err(|e| InputError::io(&path, e))?;
        }
        Ok(())
    }

    /// Appends a record to both files, flushed.
    pub fn append(&mut self, record: RunRecord) -> Result<(), InputError> {
        let line = serde_json::to_string(&record).expect("a record serialises");
        let results = self.dir.join(RESULTS);
        writeln!(self.jsonl, "{line}")
            .and_then(|()| self.jsonl.flush())
            .map_err(|e| InputError::io(&results, e))?;
        let csv = self.dir.join(CSV);
        writeln!(self.csv, "{}", record.csv_row())
            .and_then(|()| self.csv.flush())
            .map_err(|e| InputError::io(&csv, e))?;
        self.records.push(record);
        Ok(())
    }

    /// Appends a machine record.
    pub fn add_machine(&self, machine: &MachineInfo) -> Result<(), InputError> {
        let path = self.dir.join(MACHINES);
        let mut file = append_to(&path)?;
        let line = serde_json::to_string(machine).expect("a machine record serialises");
        writeln!(file, "{line}").map_err(|e| InputError::io(&path, e))
    }
}

fn append_to(path: &Path) -> Result<File, InputError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| InputError::io(path, e))
}

/// Writes `records` as a fresh JSONL file (through a temporary file and a rename, so a
/// kill in between leaves the old file whole).
fn write_jsonl(path: &Path, records: &[RunRecord]) -> Result<(), InputError> {
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r).expect("a record serialises"));
        text.push('\n');
    }
    let temporary = path.with_extension("jsonl.tmp");
    std::fs::write(&temporary, text).map_err(|e| InputError::io(&temporary, e))?;
    std::fs::rename(&temporary, path).map_err(|e| InputError::io(path, e))
}

/// Writes `records` as a fresh CSV file.
fn write_csv(path: &Path, records: &[RunRecord]) -> Result<(), InputError> {
    let mut text = CSV_COLUMNS.join(",");
    text.push('\n');
    for r in records {
        text.push_str(&r.csv_row());
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| InputError::io(path, e))
}

/// The records of a `results.jsonl` file. A last line cut short (a study killed while
/// writing it) is dropped: its run is done again on resume; any other unreadable line is
/// an error naming it.
pub fn read_records(path: &Path) -> Result<Vec<RunRecord>, InputError> {
    let text = crate::error::read_text(path)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut records = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<RunRecord>(line) {
            Ok(r) => records.push(r),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
            Err(e) => {
                return Err(InputError::at(
                    path,
                    i + 1,
                    format!("not a run record: {e}"),
                ))
            }
        }
    }
    Ok(records)
}

/// The machine records of a result folder (none if it has no `machines.jsonl`).
pub fn read_machines(dir: &Path) -> Result<Vec<MachineInfo>, InputError> {
    let path = dir.join(MACHINES);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = crate::error::read_text(&path)?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| InputError::at(&path, i + 1, format!("not a machine record: {e}")))
        })
        .collect()
}

/// The records and machines of result folders or `results.jsonl` files.
pub fn read_results(inputs: &[PathBuf]) -> Result<(Vec<RunRecord>, Vec<MachineInfo>), InputError> {
    let (records, machines) = read_results_with_folders(inputs)?;
    Ok((records.into_iter().map(|(r, _)| r).collect(), machines))
}

/// A run record with the result folder it was read from.
type RecordIn = (RunRecord, PathBuf);

/// [`read_results`], each record with the result folder it was read from.
fn read_results_with_folders(
    inputs: &[PathBuf],
) -> Result<(Vec<RecordIn>, Vec<MachineInfo>), InputError> {
    let mut records = Vec::new();
    let mut machines = Vec::new();
    for input in inputs {
        let (file, dir) = if input.is_dir() {
            (input.join(RESULTS), input.clone())
        } else {
            (
                input.clone(),
                input.parent().unwrap_or(Path::new(".")).to_path_buf(),
            )
        };
        records.extend(read_records(&file)?.into_iter().map(|r| (r, dir.clone())));
        for m in read_machines(&dir)? {
            if !machines.contains(&m) {
                machines.push(m);
            }
        }
    }
    Ok((records, machines))
}

/// Joins result folders into `out`: one record per run key (where folders disagree,
/// the last to finish), in the plan's order, each with its run's folder
/// (`runs/KEY`, copied from the folder the record came from), and the machines of all.
/// Returns the number of records and the keys found more than once.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<(usize, Vec<String>), InputError> {
    let (records, machines) = read_results_with_folders(inputs)?;
    let mut by_key: BTreeMap<String, RecordIn> = BTreeMap::new();
    let mut repeated = Vec::new();
    for (r, dir) in records {
        match by_key.get(&r.key) {
            Some((old, _)) => {
                repeated.push(r.key.clone());
                if r.finished_at >= old.finished_at {
                    by_key.insert(r.key.clone(), (r, dir));
                }
            }
            None => {
                by_key.insert(r.key.clone(), (r, dir));
            }
        }
    }
    std::fs::create_dir_all(out).map_err(|e| InputError::io(out, e))?;
    let results = out.join(RESULTS);
    if results.exists() {
        return Err(InputError::file(
            &results,
            "exists already: merge into a new folder",
        ));
    }
    let mut records: Vec<RecordIn> = by_key.into_values().collect();
    records.sort_by_key(|(r, _)| r.index);
    for (record, dir) in &records {
        let run = dir.join("runs").join(&record.key);
        if run.is_dir() {
            copy_folder(&run, &out.join("runs").join(&record.key))?;
        }
    }
    let records: Vec<RunRecord> = records.into_iter().map(|(r, _)| r).collect();
    write_jsonl(&results, &records)?;
    let store = ResultStore::open(out)?;
    for m in &machines {
        store.add_machine(m)?;
    }
    repeated.sort();
    repeated.dedup();
    Ok((store.records().len(), repeated))
}

/// Copies the folder `from` with everything in it to `to`.
fn copy_folder(from: &Path, to: &Path) -> Result<(), InputError> {
    std::fs::create_dir_all(to).map_err(|e| InputError::io(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| InputError::io(from, e))? {
        let entry = entry.map_err(|e| InputError::io(from, e))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            copy_folder(&source, &target)?;
        } else {
            std::fs::copy(&source, &target).map_err(|e| InputError::io(&source, e))?;
        }
    }
    Ok(())
}
