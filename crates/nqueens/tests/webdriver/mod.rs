//! A small WebDriver client for the browser tests: starts chromedriver on a
//! free localhost port and headless Chromium with a fresh profile, and speaks
//! the W3C protocol over plain HTTP to 127.0.0.1 only.
#![allow(dead_code)] // each test uses part of it

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

/// The browser and driver binaries found on this machine.
pub struct Found {
    pub chrome: PathBuf,
    pub driver: PathBuf,
}

fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for name in names {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium and chromedriver: `CHROME` and `CHROMEDRIVER` if set, else from `PATH`.
pub fn find_browser() -> Option<Found> {
    let from_env = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_file())
    };
    let chrome = from_env("CHROME")
        .or_else(|| which(&["chromium", "chromium-browser", "google-chrome", "chrome"]))?;
    let driver = from_env("CHROMEDRIVER").or_else(|| which(&["chromedriver"]))?;
    Some(Found { chrome, driver })
}

/// A running chromedriver with one browser session; both end on drop.
pub struct Browser {
    driver: Child,
    agent: ureq::Agent,
    base: String,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium whose profile lives in `dir`.
    pub fn start(found: &Found, dir: &Path) -> Result<Browser, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let driver = Command::new(&found.driver)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", found.driver.display()))?;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .timeout_global(Some(Duration::from_secs(60)))
            .build();
        let mut b = Browser {
            driver,
            agent: ureq::Agent::new_with_config(config),
            base: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = b
                .agent
                .get(format!("{}/status", b.base))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == true);
            if ready {
                break;
            }
            if Instant::now() > deadline {
                return Err("chromedriver did not start within 30 s".to_string());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = dir.join("profile");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1200,1000",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": found.chrome, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let v = b.post_raw("/session", caps)?;
        let id = v["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session: {v}"))?;
        b.base = format!("{}/session/{id}", b.base);
        Ok(b)
    }

    fn post_raw(&self, path: &str, body: Value) -> Result<Value, String> {
        let mut r = self
            .agent
            .post(format!("{}{path}", self.base))
            .send_json(&body)
            .map_err(|e| format!("POST {path}: {e}"))?;
        let status = r.status();
        let v: Value = r
            .body_mut()
            .read_json()
            .map_err(|e| format!("POST {path}: {e}"))?;
        if !status.is_success() {
            return Err(format!("POST {path}: {status}: {}", v["value"]));
        }
        Ok(v)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.post_raw(path, body).unwrap_or_else(|e| panic!("{e}"))["value"].take()
    }

    fn get(&self, path: &str) -> Value {
        let mut r = self
            .agent
            .get(format!("{}{path}", self.base))
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let v: Value = r.body_mut().read_json().unwrap();
        v["value"].clone()
    }

    /// Opens `url` afresh (through `about:blank`, so that a change of the
    /// fragment alone reloads the page).
    pub fn open(&self, url: &str) {
        self.post("/url", json!({"url": "about:blank"}));
        self.post("/url", json!({"url": url}));
    }

    /// Runs `script` in the page with `args`; returns its result.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": args}))
    }

    fn element(&self, css: &str) -> String {
        let v = self.post("/element", json!({"using": "css selector", "value": css}));
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// Clicks the element with `data-testid` = `testid`, `times` times.
    pub fn click_n(&self, testid: &str, times: usize) {
        let id = self.element(&format!("[data-testid=\"{testid}\"]"));
        for _ in 0..times {
            self.post(&format!("/element/{id}/click"), json!({}));
        }
    }

    /// Types `text` (WebDriver key codes such as `\u{E014}` for →) into the page's body.
    pub fn keys(&self, text: &str) {
        let id = self.element("body");
        self.post(&format!("/element/{id}/value"), json!({"text": text}));
    }

    /// Clicks the element with `data-testid` = `testid` at (`dx`, `dy`) from its centre.
    pub fn click_at(&self, testid: &str, dx: f64, dy: f64) {
        let id = self.element(&format!("[data-testid=\"{testid}\"]"));
        let origin = json!({ "element-6066-11e4-a52e-4f735466cecf": id });
        self.post(
            "/actions",
            json!({"actions": [{"type": "pointer", "id": "mouse",
                "parameters": {"pointerType": "mouse"},
                "actions": [
                    {"type": "pointerMove", "origin": origin, "x": dx.round() as i64, "y": dy.round() as i64},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerUp", "button": 0}
                ]}]}),
        );
    }

    /// Picks the option with `value` in the `<select>` with `data-testid` = `testid`.
    pub fn select(&self, testid: &str, value: &str) {
        let id = self.element(&format!(
            "[data-testid=\"{testid}\"] option[value=\"{value}\"]"
        ));
        self.post(&format!("/element/{id}/click"), json!({}));
    }

    /// Emulates a screen of `width` × `height` CSS pixels (a phone when narrow).
    pub fn set_viewport(&self, width: u32, height: u32) {
        self.post(
            "/goog/cdp/execute",
            json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
            }}),
        );
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.get("/screenshot");
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap()
    }

    /// The browser log's errors so far (console errors, uncaught exceptions,
    /// failed loads).
    pub fn console_errors(&self) -> Vec<String> {
        let v = self.post("/se/log", json!({"type": "browser"}));
        v.as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.agent.delete(&self.base).call();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
