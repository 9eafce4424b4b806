//! Words and numbers on the chart: decade tick labels, thousands separators, XML escaping.

/// `10^e` as a count: `1`, `10`, `100`, `1k`, ..., `100M`, `1G`, then `1e12`.
pub(super) fn decade_count(e: i32) -> String {
    let unit = |k: i32, suffix: &str| format!("{}{suffix}", 10u64.pow((e - k) as u32));
    match e {
        i32::MIN..=-1 => format!("1e{e}"),
        0..=2 => unit(0, ""),
        3..=5 => unit(3, "k"),
        6..=8 => unit(6, "M"),
        9..=11 => unit(9, "G"),
        _ => format!("1e{e}"),
    }
}

/// `10^e` seconds: `1 ns`, ..., `100 µs`, `1 ms`, ..., `1 s`, `10 s`, `100 s`, `1e3 s`.
pub(super) fn decade_seconds(e: i32) -> String {
    let unit = |k: i32, suffix: &str| format!("{} {suffix}", 10u64.pow((e - k) as u32));
    match e {
        -9..=-7 => unit(-9, "ns"),
        -6..=-4 => unit(-6, "µs"),
        -3..=-1 => unit(-3, "ms"),
        0..=2 => unit(0, "s"),
        _ => format!("1e{e} s"),
    }
}

/// `1234567` as `1,234,567`.
pub(super) fn thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(super) use csp_trace::escape_xml as escape;
