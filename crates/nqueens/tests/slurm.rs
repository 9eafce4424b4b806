//! The Slurm recipe on a real scheduler: the test starts a one-node Slurm cluster of its
//! own (Debian's `munged`, `slurmctld` and `slurmd` as child processes, configuration and
//! state in a temporary folder), submits `deploy/slurm/submit.sh` (the job array
//! `nqueens-count.sbatch` and the dependent `nqueens-merge.sbatch`) unchanged, with only
//! the documented variables set, and checks the merged count against OEIS A000170. A task
//! run again finds its share line and does nothing; a failing share leaves the merge job
//! pending; an array task requeued with `scontrol requeue` while it counts resumes from
//! its checkpoint and the total stays exact. Skipped with a note where Slurm is not
//! installed (`.ci/run` installs `slurm-wlm` and `munge`) or the test does not run as root.
#![cfg(unix)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nqueens::checkpoint::Checkpoint;

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

/// OEIS A000170: the number of ways to place N non-attacking queens on an N x N
/// board, for N = 0..=16.
const A000170: [u64; 17] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
];

/// The node's name in the test's `slurm.conf`.
const NODE: &str = "nqueens1";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Where `program` is: on PATH, or in /usr/sbin or /sbin (daemons, when PATH lacks them).
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// A command for `program`, found by [`which`] (or left to fail with a clear error).
fn command(program: &str) -> Command {
    Command::new(which(program).unwrap_or_else(|| program.into()))
}

/// Whether a job state from `squeue` is final.
fn ended(state: &str) -> bool {
    matches!(
        state,
        "COMPLETED"
            | "FAILED"
            | "CANCELLED"
            | "TIMEOUT"
            | "NODE_FAIL"
            | "PREEMPTED"
            | "OUT_OF_MEMORY"
            | "BOOT_FAIL"
            | "DEADLINE"
    )
}

/// A free TCP port on 127.0.0.1 (free when asked; nothing else here binds ports at random).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Standard output of a command that must succeed, or its standard error.
fn output(cmd: &mut Command) -> Result<String, String> {
    let o = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if o.status.success() {
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    } else {
        Err(format!(
            "{cmd:?}: {}: {}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}

/// Polls `probe` every `every` until it returns `Some`, for at most `limit`.
fn poll<T>(limit: Duration, every: Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(t) = probe() {
            return Some(t);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(every);
    }
}

/// A one-node Slurm cluster started by this test. Dropping it (also when the test
/// fails) cancels the jobs it submitted, stops the daemons it started by their process
/// ids, and removes its folder.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
    jobs: Vec<String>,
}

impl Cluster {
    /// Starts munged, slurmctld and slurmd and waits until `sinfo` shows the node idle.
    /// Returns the cluster and how long it took to come up, or why it could not start.
    fn start() -> Result<(Cluster, Duration), String> {
        let dir = std::env::temp_dir().join(format!("nqueens-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let started = Instant::now();
        let mut cluster = Cluster {
            conf: dir.join("slurm.conf"),
            dir,
            daemons: Vec::new(),
            jobs: Vec::new(),
        };
        let dir = cluster.dir.clone();
        for sub in ["munge", "run", "state", "spool", "submit"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        }
        use std::os::unix::fs::PermissionsExt;
        // munged wants its key private and its socket's folder open to all.
        let mode = |p: &Path, m| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
        mode(&dir, 0o755).map_err(|e| e.to_string())?;
        mode(&dir.join("run"), 0o755).map_err(|e| e.to_string())?;
        mode(&dir.join("munge"), 0o700).map_err(|e| e.to_string())?;
        let key = dir.join("munge/munge.key");
        output(
            command("mungekey")
                .arg("--create")
                .arg("--keyfile")
                .arg(&key),
        )?;
        let socket = dir.join("run/munge.socket");
        let mut munged = command("munged");
        munged
            .arg("--foreground")
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!(
                "--pid-file={}",
                dir.join("run/munged.pid").display()
            ))
            .arg(format!("--log-file={}", dir.join("munged.log").display()))
            .arg(format!("--seed-file={}", dir.join("munge/seed").display()));
        cluster.spawn("munged", munged)?;
        poll(Duration::from_secs(10), Duration::from_millis(20), || {
            socket.exists().then_some(())
        })
        .ok_or_else(|| format!("munged made no socket in 10 s\n{}", cluster.logs()))?;

        // The machine's cores, sockets and threads as slurmd sees them, so that the
        // node is not drained for a mismatch; the memory is left at Slurm's default.
        let hardware = output(command("slurmd").arg("-C"))?;
        let hardware: Vec<&str> = hardware
            .lines()
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .filter(|w| !w.starts_with("NodeName=") && !w.starts_with("RealMemory="))
            .collect();
        // slurmctld runs only where SlurmctldHost is this machine's (short) host name.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| output(&mut command("hostname")))?;
        let host = host
            .trim()
            .split('.')
            .next()
            .unwrap_or_default()
            .to_string();
        let d = dir.display();
        let conf = format!(
            "# A one-node cluster for crates/nqueens/tests/slurm.rs: no cgroups, no accounting.
ClusterName=nqueens-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld}
SlurmdPort={slurmd}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/run/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/run/slurmctld.pid
SlurmdPidFile={d}/run/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerParameters=batch_sched_delay=0
NodeName={NODE} NodeHostname={host} NodeAddr=127.0.0.1 {hardware} State=UNKNOWN
PartitionName=test Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
",
            ctld = free_port(),
            slurmd = free_port(),
            hardware = hardware.join(" "),
        );
        std::fs::write(&cluster.conf, conf).map_err(|e| e.to_string())?;
        let mut slurmctld = command("slurmctld");
        slurmctld.arg("-D").arg("-f").arg(&cluster.conf);
        cluster.spawn("slurmctld", slurmctld)?;
        let mut slurmd = command("slurmd");
        slurmd.args(["-D", "-N", NODE, "-f"]).arg(&cluster.conf);
        cluster.spawn("slurmd", slurmd)?;
        let mut last = String::new();
        let idle = poll(Duration::from_secs(60), Duration::from_millis(100), || {
            if let Err(e) = cluster.alive() {
                last = e;
                return Some(false);
            }
            match output(
                cluster
                    .command("sinfo")
                    .args(["-h", "-n", NODE, "-o", "%t"]),
            ) {
                Ok(state) if state.trim() == "idle" => Some(true),
                Ok(state) => {
                    last = format!("the node is {}", state.trim());
                    None
                }
                Err(e) => {
                    last = e;
                    None
                }
            }
        });
        if idle != Some(true) {
            return Err(format!(
                "the node is not idle after 60 s: {last}\n{}",
                cluster.logs()
            ));
        }
        Ok((cluster, started.elapsed()))
    }

    /// Starts a daemon with its output in `NAME.out`.
    fn spawn(&mut self, name: &'static str, mut cmd: Command) -> Result<(), String> {
        let out = File::create(self.dir.join(format!("{name}.out"))).map_err(|e| e.to_string())?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = cmd
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("could not start {name}: {e}"))?;
        self.daemons.push((name, child));
        Ok(())
    }

    /// A Slurm command that talks to this cluster.
    fn command(&self, program: &str) -> Command {
        let mut c = command(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// An error naming the first daemon that has exited.
    fn alive(&mut self) -> Result<(), String> {
        for (name, child) in &mut self.daemons {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("{name} exited: {status}"));
            }
        }
        Ok(())
    }

    /// The last lines of the daemons' logs, for a failure message.
    fn logs(&self) -> String {
        let mut s = String::new();
        for name in [
            "munged.out",
            "munged.log",
            "slurmctld.out",
            "slurmctld.log",
            "slurmd.out",
            "slurmd.log",
        ] {
            if let Ok(text) = std::fs::read_to_string(self.dir.join(name)) {
                let lines: Vec<&str> = text.lines().collect();
                s.push_str(&format!("--- {name}\n"));
                for line in &lines[lines.len().saturating_sub(15)..] {
                    s.push_str(line);
                    s.push('\n');
                }
            }
        }
        s
    }

    /// Runs `deploy/slurm/submit.sh N K OPTIONS...` from `DIR/submit` with `OUT`,
    /// `NQUEENS` and `CHECKPOINT_INTERVAL` set; returns the array job id, the merge job id
    /// and `OUT`.
    fn submit(
        &mut self,
        n: usize,
        k: usize,
        interval: &str,
        options: &[&str],
    ) -> (String, String, PathBuf) {
        let out = self.dir.join(format!("out-{n}-of-{k}-{}", self.jobs.len()));
        let text = output(
            self.command("bash")
                .arg(root().join("deploy/slurm/submit.sh"))
                .args([n.to_string(), k.to_string()])
                .args(options)
                .env("OUT", &out)
                .env("NQUEENS", BIN)
                .env("CHECKPOINT_INTERVAL", interval)
                .current_dir(self.dir.join("submit")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        // "array job A (K = k shares), merge job M; the total will be in OUT/total.txt"
        let id = |after: &str| -> String {
            let rest = text.split(after).nth(1).unwrap_or_default();
            rest.chars().take_while(char::is_ascii_digit).collect()
        };
        let (array, merge) = (id("array job "), id("merge job "));
        assert!(!array.is_empty() && !merge.is_empty(), "{text}");
        self.jobs.extend([array.clone(), merge.clone()]);
        (array, merge, out)
    }

    /// The state of each job and array task of `jobs` (`squeue -t all`).
    fn states(&self, jobs: &[&str]) -> BTreeMap<String, String> {
        let text = output(self.command("squeue").args([
            "-h",
            "-t",
            "all",
            "-j",
            &jobs.join(","),
            "-o",
            "%i %T",
        ]))
        .unwrap_or_default();
        text.lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(id, state)| (id.to_string(), state.trim().to_string()))
            .collect()
    }

    /// Waits (at most `limit`, polling `squeue` every 100 ms) until the array job and
    /// the merge job have ended, and returns the array tasks that completed.
    fn wait(&self, array: &str, merge: &str, limit: Duration) -> BTreeSet<String> {
        let mut completed = BTreeSet::new();
        let done = poll(limit, Duration::from_millis(100), || {
            let states = self.states(&[array, merge]);
            for (id, state) in &states {
                if id != merge && ended(state) {
                    assert_eq!(state, "COMPLETED", "array task {id}\n{}", self.logs());
                    completed.insert(id.clone());
                }
            }
            match states.get(merge) {
                Some(state) if ended(state) => Some(state.clone()),
                _ => None,
            }
        });
        match done {
            Some(state) => assert_eq!(state, "COMPLETED", "merge job {merge}\n{}", self.logs()),
            None => panic!(
                "the jobs did not end within {limit:?}: {:?}\n{}",
                self.states(&[array, merge]),
                self.logs()
            ),
        }
        completed
    }

    /// How long each job or array task of `job` ran, from slurmctld's log (times to the
    /// millisecond): from its last `sched: Allocate JobId=ID(` line to the
    /// `_job_complete: JobId=ID(...) done` line after it.
    fn run_times(&self, job: &str) -> BTreeMap<String, Duration> {
        let log = std::fs::read_to_string(self.dir.join("slurmctld.log")).unwrap_or_default();
        // "[2026-12-03T07:48:31.252] sched: Allocate JobId=1_1(3) NodeList=..."
        let millis = |line: &str| -> Option<u64> {
            let time = line.get(12..24)?; // 07:48:31.252
            let (h, m, s) = (time.get(0..2)?, time.get(3..5)?, time.get(6..12)?);
            let s: f64 = s.parse().ok()?;
            Some(
                (h.parse::<u64>().ok()? * 3600 + m.parse::<u64>().ok()? * 60) * 1000
                    + (s * 1000.0).round() as u64,
            )
        };
        let id = |rest: &str| rest.split('(').next().unwrap_or_default().to_string();
        let mut started = BTreeMap::new();
        let mut ran = BTreeMap::new();
        for line in log.lines() {
            if let Some(rest) = line.split("sched: Allocate JobId=").nth(1) {
                let id = id(rest);
                if id == job || id.starts_with(&format!("{job}_")) {
                    started.insert(id, millis(line));
                }
            } else if let Some(rest) = line.split("_job_complete: JobId=").nth(1) {
                let task = id(rest);
                if let (true, Some(Some(from)), Some(to)) =
                    (rest.ends_with(" done"), started.get(&task), millis(line))
                {
                    // Across midnight, the clock starts again.
                    let ms = (to + 86_400_000 - from) % 86_400_000;
                    ran.insert(task, Duration::from_millis(ms));
                }
            }
        }
        ran
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("{}", self.logs());
        }
        if !self.jobs.is_empty() && self.alive().is_ok() {
            let jobs = self.jobs.join(",");
            // Ended jobs are in the list too: scancel's complaints about them are noise.
            let _ = self
                .command("scancel")
                .arg(&jobs)
                .stderr(Stdio::null())
                .status();
            poll(Duration::from_secs(30), Duration::from_millis(200), || {
                let states = self.states(&self.jobs.iter().map(String::as_str).collect::<Vec<_>>());
                states
                    .values()
                    .all(|s| !matches!(s.as_str(), "RUNNING" | "COMPLETING"))
                    .then_some(())
            });
        }
        for (_, child) in self.daemons.iter_mut().rev() {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let gone = poll(Duration::from_secs(10), Duration::from_millis(50), || {
                child.try_wait().ok().flatten()
            });
            if gone.is_none() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The merged line of `OUT/total.txt`, as a number.
fn total(out: &Path) -> u64 {
    let text = std::fs::read_to_string(out.join("total.txt")).unwrap();
    text.trim().parse().unwrap_or_else(|_| panic!("{text:?}"))
}

fn skip_reason() -> Option<String> {
    for program in [
        "munged",
        "mungekey",
        "slurmctld",
        "slurmd",
        "sbatch",
        "squeue",
        "scontrol",
    ] {
        if which(program).is_none() {
            return Some(format!(
                "{program} is not installed (apt-get install slurm-wlm munge; .ci/run does)"
            ));
        }
    }
    let uid = output(command("id").arg("-u")).unwrap_or_default();
    if uid.trim() != "0" {
        return Some("not root: the test's cluster runs Slurm as root, as CI does".into());
    }
    None
}

/// "mean 0.09 s, slowest 0.12 s" of the run times of the tasks of `array`.
fn times(ran: &BTreeMap<String, Duration>) -> String {
    let Some(slowest) = ran.values().max() else {
        return "not in slurmctld's log".into();
    };
    let mean = ran.values().sum::<Duration>() / ran.len() as u32;
    format!(
        "mean {:.2} s, slowest {:.2} s",
        mean.as_secs_f64(),
        slowest.as_secs_f64()
    )
}

#[test]
fn the_slurm_recipe_counts_exactly_on_a_one_node_cluster_and_a_requeued_task_resumes() {
    if let Some(why) = skip_reason() {
        eprintln!("skipped: {why}");
        return;
    }
    let (mut cluster, up) = match Cluster::start() {
        Ok(c) => c,
        // In CI the packages are installed: a cluster that does not start is a failure.
        Err(e) if std::env::var_os("CI").is_some() => panic!("Slurm did not start: {e}"),
        Err(e) => {
            eprintln!("skipped: Slurm is installed but did not start here: {e}");
            return;
        }
    };
    let cpus = output(
        cluster
            .command("sinfo")
            .args(["-h", "-n", NODE, "-o", "%c"]),
    )
    .unwrap_or_default();
    eprintln!(
        "slurm: one node with {} CPUs idle {:.2} s after the test began to start it \
         (munge key, munged, slurm.conf, slurmctld, slurmd)",
        cpus.trim(),
        up.as_secs_f64()
    );
    let submit_dir = cluster.dir.join("submit");

    // The recipe as docs/cluster.md gives it: N = 13 in K = 8 shares.
    let (n, k) = (13, 8);
    let submitted = Instant::now();
    let (array, merge, out) = cluster.submit(n, k, "30s", &[]);
    let completed = cluster.wait(&array, &merge, Duration::from_secs(180));
    let all = submitted.elapsed();
    let expected: BTreeSet<String> = (1..=k).map(|i| format!("{array}_{i}")).collect();
    assert_eq!(completed, expected);
    let merged = total(&out);
    assert_eq!(merged, A000170[n], "N = {n}");
    eprintln!(
        "slurm: N = {n}, K = {k}: array job {array}, merge job {merge}; merged count {merged} \
         (A000170: {}); sbatch to total.txt {:.2} s; per share (allocation to completion in \
         slurmctld's log) {}",
        A000170[n],
        all.as_secs_f64(),
        times(&cluster.run_times(&array))
    );
    for i in 1..=k {
        let line = std::fs::read_to_string(out.join(format!("share-{i}.txt"))).unwrap();
        assert!(
            line.starts_with(&format!("nqueens-partial n={n} part={i}/{k} method=")),
            "{line}"
        );
        let log = submit_dir.join(format!("nqueens-count-{array}_{i}.log"));
        assert_eq!(std::fs::read_to_string(&log).unwrap(), line, "{log:?}");
    }
    let log = submit_dir.join(format!("nqueens-merge-{merge}.log"));
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("{merged}\n")
    );

    // A share run twice: the task resubmitted by hand (as the sbatch file's header
    // shows) finds its line and does nothing ...
    let again = output(
        cluster
            .command("sbatch")
            .args([
                "--parsable",
                "--array=3",
                &format!(
                    "--export=ALL,N={n},K={k},NQUEENS={BIN},OUT={}",
                    out.display()
                ),
            ])
            .arg(root().join("deploy/slurm/nqueens-count.sbatch"))
            .current_dir(&submit_dir),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let again = again.trim().to_string();
    cluster.jobs.push(again.clone());
    let task = format!("{again}_3");
    poll(Duration::from_secs(60), Duration::from_millis(100), || {
        let state = cluster.states(&[&again]).get(&task).cloned();
        state.filter(|s| ended(s))
    })
    .map(|state| assert_eq!(state, "COMPLETED", "{task}"))
    .unwrap_or_else(|| panic!("{task} did not end: {:?}", cluster.states(&[&again])));
    let share3 = std::fs::read_to_string(out.join("share-3.txt")).unwrap();
    assert_eq!(
        std::fs::read_to_string(submit_dir.join(format!("nqueens-count-{task}.log"))).unwrap(),
        format!("share 3/{k} is already counted: {share3}")
    );
    // ... and a line given twice is refused by the merge.
    let twice = Command::new(BIN)
        .arg("merge")
        .args((1..=k).map(|i| out.join(format!("share-{i}.txt"))))
        .arg(out.join("share-3.txt"))
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&twice.stderr),
        format!("error: share 3/{k} appears more than once\n")
    );

    // A share that fails (bad input, status 2) fails its task, and the merge job never
    // starts: it waits, DependencyNeverSatisfied, until it is cancelled.
    let (array, merge, out) = cluster.submit(n, 2, "30s", &["--no-such-option"]);
    poll(Duration::from_secs(60), Duration::from_millis(100), || {
        let reason = output(
            cluster
                .command("squeue")
                .args(["-h", "-j", &merge, "-o", "%T %r"]),
        )
        .unwrap_or_default();
        (reason.trim() == "PENDING DependencyNeverSatisfied").then_some(())
    })
    .unwrap_or_else(|| panic!("merge job {merge}: {:?}", cluster.states(&[&array, &merge])));
    let states = cluster.states(&[&array]);
    assert_eq!(
        states.values().collect::<Vec<_>>(),
        ["FAILED", "FAILED"],
        "{states:?}"
    );
    let log =
        std::fs::read_to_string(submit_dir.join(format!("nqueens-count-{array}_1.log"))).unwrap();
    assert!(
        log.contains("error: unexpected argument '--no-such-option' found"),
        "{log}"
    );
    output(cluster.command("scancel").arg(&merge)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.join("total.txt").exists());
    eprintln!(
        "slurm: a failing share (array job {array}): both tasks FAILED, merge job {merge} \
         pending (DependencyNeverSatisfied) until cancelled"
    );

    // A task stopped while it counts and requeued (as when it is pre-empted, or its node
    // is lost) resumes from its checkpoint. N = 16 in 2 shares (2-7 s each on the
    // loaded 2-core machine), saved every 100 ms.
    let (n, k) = (16, 2);
    let (array, merge, out) = cluster.submit(n, k, "100ms", &[]);
    let checkpoint = out.join("share-1.ckpt");
    let line = out.join("share-1.txt");
    let read = || -> Option<Checkpoint> { std::fs::read_to_string(&checkpoint).ok()?.parse().ok() };
    let part_way = poll(Duration::from_secs(120), Duration::from_millis(20), || {
        assert!(
            !line.exists(),
            "share 1 of N = {n} ended before it could be requeued: make it longer"
        );
        read().filter(|c| c.finished() > 0 && !c.is_complete())
    })
    .unwrap_or_else(|| panic!("share 1 of N = {n} saved no progress in 120 s"));
    let task = format!("{array}_1");
    output(cluster.command("scontrol").args(["requeue", &task])).unwrap_or_else(|e| panic!("{e}"));
    // Slurm holds a requeued job back for a while (its BeginTime, two minutes on); in
    // that time the task's checkpoint is on disk, part way.
    poll(Duration::from_secs(60), Duration::from_millis(50), || {
        (cluster.states(&[&task]).get(&task).map(String::as_str) == Some("PENDING")).then_some(())
    })
    .unwrap_or_else(|| panic!("{task} was not requeued: {:?}", cluster.states(&[&task])));
    let job = output(cluster.command("scontrol").args(["show", "job", &task])).unwrap();
    assert!(job.contains("Restarts=1"), "{job}");
    assert!(job.contains("Reason=BeginTime"), "{job}");
    let saved = read().unwrap();
    assert!(
        saved.finished() >= part_way.finished() && !saved.is_complete() && !line.exists(),
        "{} of {} subproblems",
        saved.finished(),
        saved.subproblems()
    );
    // slurmd revoked the requeued run's credential; a new run launched within
    // the same second is killed as "Job credential revoked" (the check compares
    // whole seconds), so let the clock move on first.
    std::thread::sleep(Duration::from_secs(2));
    output(
        cluster
            .command("scontrol")
            .args(["update", &format!("jobid={task}"), "StartTime=now"]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Run again, the task starts from the saved subproblems: its checkpoint never
    // shows fewer (a count started over would save an empty one first).
    poll(Duration::from_secs(180), Duration::from_millis(10), || {
        if let Some(c) = read() {
            assert!(
                c.finished() >= saved.finished(),
                "the requeued task started over: {} subproblems done, {} were saved",
                c.finished(),
                saved.finished()
            );
        }
        line.exists().then_some(())
    })
    .unwrap_or_else(|| panic!("{task} did not finish after it was requeued"));
    let completed = cluster.wait(&array, &merge, Duration::from_secs(180));
    assert_eq!(completed.len(), k, "{completed:?}");
    let merged = total(&out);
    assert_eq!(merged, A000170[n], "N = {n}");
    // The task's log is its last run's: Slurm truncates it when the task starts again.
    assert_eq!(
        std::fs::read_to_string(submit_dir.join(format!("nqueens-count-{task}.log"))).unwrap(),
        std::fs::read_to_string(&line).unwrap()
    );
    let ran = cluster.run_times(&array);
    eprintln!(
        "slurm: N = {n}, K = {k}: array job {array}, merge job {merge}; task {task} requeued \
         with {} of {} subproblems saved and resumed; merged count {merged} (A000170: {}); \
         per share {} (task 1: its resumed run)",
        saved.finished(),
        saved.subproblems(),
        A000170[n],
        times(&ran)
    );
}
