//! The cluster recipes in `deploy/`: the scripts parse, the Kubernetes YAML parses and is an Indexed Job, every variable they use is documented in docs/cluster.md, and the Slurm and Kubernetes share commands, run here with the scheduler's variables set by hand, count and merge exactly.
#![cfg(unix)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

const SCRIPTS: [&str; 4] = [
    "deploy/parallel/nqueens-shares.sh",
    "deploy/slurm/nqueens-count.sbatch",
    "deploy/slurm/nqueens-merge.sbatch",
    "deploy/slurm/submit.sh",
];

const MANIFESTS: [&str; 2] = [
    "deploy/k8s/nqueens-count.yaml",
    "deploy/k8s/nqueens-merge.yaml",
];

/// A temporary folder, removed with its contents when dropped (also when a
/// test fails).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-deploy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Shell variables used as `$NAME`, `${NAME...}` or `$((NAME ...`, upper case only (the
/// environment; lower-case ones are the scripts' own).
fn variables(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('$') {
        let rest = &bytes[i + 1..];
        let rest = rest.strip_prefix(b"((").unwrap_or(rest);
        let rest = rest.strip_prefix(b"{").unwrap_or(rest);
        let name: String = rest
            .iter()
            .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
            .map(|&b| b as char)
            .collect();
        if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            out.insert(name);
        }
    }
    out
}

#[test]
fn the_scripts_are_valid_shell() {
    for script in SCRIPTS {
        let status = Command::new("bash")
            .arg("-n")
            .arg(root().join(script))
            .status()
            .unwrap();
        assert!(status.success(), "{script}");
    }
}

fn load(path: &str) -> Vec<Yaml> {
    YamlLoader::load_from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The container of a Job manifest.
fn container(job: &Yaml) -> &Yaml {
    &job["spec"]["template"]["spec"]["containers"][0]
}

/// The value of an environment variable set in a container.
fn env<'a>(container: &'a Yaml, name: &str) -> &'a str {
    container["env"]
        .as_vec()
        .unwrap()
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
        .and_then(|e| e["value"].as_str())
        .unwrap_or_else(|| panic!("no {name} in the container's env"))
}

#[test]
fn the_kubernetes_manifests_parse_as_an_indexed_job_and_a_merge_job() {
    let count = load("deploy/k8s/nqueens-count.yaml");
    let kinds: Vec<_> = count.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["PersistentVolumeClaim", "Job"]);
    let claim = count[0]["metadata"]["name"].as_str().unwrap();
    let job = &count[1];
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(job["spec"]["completionMode"].as_str(), Some("Indexed"));
    let c = container(job);
    let k: i64 = env(c, "K").parse().unwrap();
    assert_eq!(
        job["spec"]["completions"].as_i64(),
        Some(k),
        "completions must equal K"
    );
    let script = c["command"][2].as_str().unwrap();
    assert!(script.contains("JOB_COMPLETION_INDEX"));
    let merge = &load("deploy/k8s/nqueens-merge.yaml")[0];
    assert_eq!(merge["kind"].as_str(), Some("Job"));
    for manifest in [job, merge] {
        let spec = &manifest["spec"]["template"]["spec"];
        assert_eq!(
            spec["volumes"][0]["persistentVolumeClaim"]["claimName"].as_str(),
            Some(claim)
        );
        let mount = container(manifest)["volumeMounts"][0]["mountPath"].as_str();
        assert_eq!(mount, Some(env(container(manifest), "DATA")));
    }
}

#[test]
fn every_variable_and_path_the_recipes_use_is_documented() {
    let doc = read("docs/cluster.md");
    let mut used = BTreeSet::new();
    for file in SCRIPTS.iter().chain(&MANIFESTS) {
        used.extend(variables(&read(file)));
    }
    for name in &used {
        assert!(
            doc.contains(&format!("`{name}`")),
            "docs/cluster.md does not document `{name}`"
        );
    }
    for must in [
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
        "NQUEENS_OPTS",
        "SSHLOGINS",
    ] {
        assert!(used.contains(must), "{must}");
    }
    for path in SCRIPTS
        .iter()
        .chain(&MANIFESTS)
        .chain(&["deploy/Dockerfile"])
    {
        assert!(
            doc.contains(path),
            "docs/cluster.md does not mention {path}"
        );
    }
    for path in ["/data", "share-I.txt", "share-I.ckpt", "total.txt"] {
        assert!(
            doc.contains(path),
            "docs/cluster.md does not explain {path}"
        );
    }
}

/// The array task script, run as Slurm would for tasks 1..=K (the variables
/// set by hand), then the merge job script.
#[test]
fn the_slurm_scripts_count_and_merge_shares() {
    let dir = temp_dir("slurm");
    let _cleanup = TempDir(dir.clone());
    let out = dir.join("out");
    let script = |name: &str, task: Option<usize>| {
        let mut c = Command::new("bash");
        c.arg(root().join("deploy/slurm").join(name))
            .env("N", "10")
            .env("K", "4")
            .env("OUT", &out)
            .env("NQUEENS", BIN)
            .env("NQUEENS_OPTS", "--method symmetry")
            .env("CHECKPOINT_INTERVAL", "1s")
            .env("SLURM_SUBMIT_DIR", &dir);
        if let Some(t) = task {
            c.env("SLURM_ARRAY_TASK_ID", t.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "4");
        }
        let o = c.output().unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    for task in 1..=4 {
        let line = script("nqueens-count.sbatch", Some(task));
        assert!(
            line.starts_with(&format!(
                "nqueens-partial n=10 part={task}/4 method=symmetry count="
            )),
            "{line}"
        );
        assert!(out.join(format!("share-{task}.ckpt")).exists());
    }
    // A requeued task whose share is done does nothing.
    assert!(script("nqueens-count.sbatch", Some(2)).starts_with("share 2/4 is already counted: "));
    let total = "724 solutions, 92 unique up to rotation and reflection\n";
    assert_eq!(script("nqueens-merge.sbatch", None), total);
    assert_eq!(
        std::fs::read_to_string(out.join("total.txt")).unwrap(),
        total
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Indexed Job's container command, run by `sh` for each index with the
/// manifest's environment (DATA pointed at a temporary folder and `nqueens`
/// on PATH), then the merge Job's command.
#[test]
fn the_kubernetes_commands_count_and_merge_shares() {
    let dir = temp_dir("k8s");
    let _cleanup = TempDir(dir.clone());
    // The pods call `nqueens` from PATH: the folder of the built binary. (Not a
    // copy: executing a file just written can fail with "text file busy" while
    // other tests fork.)
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let count = load("deploy/k8s/nqueens-count.yaml");
    let c = container(&count[1]);
    let k: usize = env(c, "K").parse().unwrap();
    let run = |container: &Yaml, index: Option<usize>, n: &str, options: &str| {
        let args: Vec<&str> = container["command"]
            .as_vec()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let mut cmd = Command::new(args[0]);
        cmd.args(&args[1..])
            .env("PATH", &path)
            .env("DATA", &data)
            .env("N", n)
            .env("K", k.to_string())
            .env("NQUEENS_OPTS", options)
            .env("CHECKPOINT_INTERVAL", "1s");
        if let Some(i) = index {
            cmd.env("JOB_COMPLETION_INDEX", i.to_string());
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    // The manifest's own options (N = 19 would take minutes): a small board.
    let options = env(c, "NQUEENS_OPTS");
    let mut logs = String::new();
    for index in 0..k {
        let line = run(c, Some(index), "11", options);
        assert!(
            line.starts_with(&format!("nqueens-partial n=11 part={}/{k} ", index + 1)),
            "{line}"
        );
        logs.push_str(&line);
    }
    let merge = load("deploy/k8s/nqueens-merge.yaml");
    let total = run(container(&merge[0]), None, "11", options);
    assert_eq!(
        total,
        "2680 solutions, 341 unique up to rotation and reflection\n"
    );
    assert_eq!(
        std::fs::read_to_string(data.join("total.txt")).unwrap(),
        total
    );
    // Each pod prints its line, so `kubectl logs ... | nqueens merge -` works too.
    let mut merge_logs = Command::new(BIN)
        .args(["merge", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    merge_logs
        .stdin
        .take()
        .unwrap()
        .write_all(logs.as_bytes())
        .unwrap();
    let merged = merge_logs.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(merged.stdout).unwrap(), total);
    std::fs::remove_dir_all(&dir).unwrap();
}
