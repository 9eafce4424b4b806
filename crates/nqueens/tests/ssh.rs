//! The GNU parallel recipe across hosts: `deploy/parallel/nqueens-shares.sh`, unchanged,
//! with `SSHLOGINS` naming a host reached over SSH: an `sshd` that the test starts on a free
//! port of 127.0.0.1 with a throw-away host key and user key, so every share travels
//! through an SSH login (the sshd log counts them) and the merged count is OEIS A000170's.
//! Skipped with a note where GNU parallel or OpenSSH is not installed (`.ci/run` installs
//! `parallel` and `openssh-server`) or the test does not run as root.
#![cfg(unix)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nqueens");

/// OEIS A000170: the number of ways to place N non-attacking queens on an N x N
/// board, for N = 0..=14.
const A000170: [u64; 15] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

/// sshd's privilege separation folder, compiled into Debian's OpenSSH (no option moves it).
const PRIVSEP: &str = "/run/sshd";

/// Where `program` is: on PATH, or in /usr/sbin or /sbin.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// An sshd started by this test. Dropping it (also when the test fails) stops it by its
/// process id, removes `/run/sshd` if the test made it, and removes its folder.
struct Sshd {
    dir: PathBuf,
    child: Option<Child>,
    made_privsep: bool,
    port: u16,
}

impl Sshd {
    /// Makes the keys and configuration and starts `sshd -D` on a free port.
    fn start(dir: &Path, sshd: &Path) -> Result<Sshd, String> {
        let mut s = Sshd {
            dir: dir.to_path_buf(),
            child: None,
            made_privsep: false,
            port: 0,
        };
        if !Path::new(PRIVSEP).exists() {
            std::fs::create_dir(PRIVSEP).map_err(|e| format!("{PRIVSEP}: {e}"))?;
            s.made_privsep = true;
        }
        for key in ["host_key", "user_key"] {
            let o = Command::new(which("ssh-keygen").unwrap())
                .args(["-q", "-t", "ed25519", "-N", "", "-C", "nqueens-test", "-f"])
                .arg(dir.join(key))
                .output()
                .map_err(|e| e.to_string())?;
            if !o.status.success() {
                return Err(format!(
                    "ssh-keygen: {}",
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
        }
        let public =
            std::fs::read_to_string(dir.join("user_key.pub")).map_err(|e| e.to_string())?;
        std::fs::write(
            dir.join("authorized_keys"),
            format!("from=\"127.0.0.1\" {public}"),
        )
        .map_err(|e| e.to_string())?;
        s.port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let d = dir.display();
        std::fs::write(
            dir.join("sshd_config"),
            format!(
                "# For crates/nqueens/tests/ssh.rs: one user key, loopback only.
ListenAddress 127.0.0.1
Port {port}
HostKey {d}/host_key
PidFile {d}/sshd.pid
AuthorizedKeysFile {d}/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
LogLevel INFO
",
                port = s.port
            ),
        )
        .map_err(|e| e.to_string())?;
        std::fs::write(
            dir.join("ssh_config"),
            format!(
                "Host nqueens-host
  HostName 127.0.0.1
  Port {port}
  User root
  IdentityFile {d}/user_key
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
",
                port = s.port
            ),
        )
        .map_err(|e| e.to_string())?;
        let out = File::create(dir.join("sshd.out")).map_err(|e| e.to_string())?;
        // sshd must be started by its absolute path (it re-executes itself).
        let child = Command::new(sshd)
            .arg("-D")
            .arg("-f")
            .arg(dir.join("sshd_config"))
            .arg("-E")
            .arg(dir.join("sshd.log"))
            .stdin(Stdio::null())
            .stdout(out.try_clone().map_err(|e| e.to_string())?)
            .stderr(out)
            .spawn()
            .map_err(|e| format!("could not start sshd: {e}"))?;
        s.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(status)) = s.child.as_mut().unwrap().try_wait() {
                return Err(format!("sshd exited: {status}: {}", s.log()));
            }
            if std::net::TcpStream::connect(("127.0.0.1", s.port)).is_ok() {
                return Ok(s);
            }
            if Instant::now() >= deadline {
                return Err(format!("sshd is not listening after 20 s: {}", s.log()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// sshd's output and log.
    fn log(&self) -> String {
        ["sshd.out", "sshd.log"]
            .iter()
            .filter_map(|f| std::fs::read_to_string(self.dir.join(f)).ok())
            .collect()
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        if self.made_privsep {
            let _ = std::fs::remove_dir(PRIVSEP);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn gnu_parallel_sends_the_shares_over_ssh_and_merges_them_exactly() {
    let mut missing = ["parallel", "ssh", "ssh-keygen", "sshd"]
        .into_iter()
        .filter(|p| which(p).is_none());
    if let Some(program) = missing.next() {
        eprintln!(
            "skipped: {program} is not installed (apt-get install parallel openssh-server; .ci/run does)"
        );
        return;
    }
    let uid = Command::new("id").arg("-u").output().unwrap();
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        eprintln!(
            "skipped: not root: the test's sshd needs {PRIVSEP} and logs in as root, as CI runs"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("nqueens-ssh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sshd = match Sshd::start(&dir, &which("sshd").unwrap()) {
        Ok(s) => s,
        Err(e) if std::env::var_os("CI").is_some() => panic!("sshd did not start: {e}"),
        Err(e) => {
            eprintln!("skipped: sshd is installed but did not start here: {e}");
            return;
        }
    };
    let (n, k) = (14, 16);
    let out = dir.join("out");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/parallel/nqueens-shares.sh");
    let started = Instant::now();
    let run = Command::new("bash")
        .arg(&script)
        .args([n.to_string(), k.to_string()])
        .env("NQUEENS", BIN)
        .env("OUT", &out)
        .env("SSHLOGINS", "2/nqueens-host")
        // GNU parallel's own variable: the ssh command it logs in with.
        .env(
            "PARALLEL_SSH",
            format!("ssh -F {}", dir.join("ssh_config").display()),
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}\n{}", sshd.log());
    let merged: u64 = String::from_utf8_lossy(&run.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{:?}", run.stdout));
    assert_eq!(merged, A000170[n]);
    for part in 1..=k {
        let line = std::fs::read_to_string(out.join(format!("share-{part}.txt"))).unwrap();
        assert!(
            line.starts_with(&format!("nqueens-partial n={n} part={part}/{k} method=")),
            "{line}"
        );
    }
    // Every share was a login of the test's user key to the test's sshd.
    let logins = sshd
        .log()
        .lines()
        .filter(|l| l.starts_with("Accepted publickey for root from 127.0.0.1 "))
        .count();
    assert!(
        logins >= k,
        "{logins} logins for {k} shares:\n{}",
        sshd.log()
    );
    eprintln!(
        "ssh: N = {n}, K = {k} through GNU parallel --sshlogin 2/nqueens-host (sshd on \
         127.0.0.1:{}): {logins} SSH logins, merged count {merged} (A000170: {}), {:.2} s",
        sshd.port,
        A000170[n],
        took.as_secs_f64()
    );
}
