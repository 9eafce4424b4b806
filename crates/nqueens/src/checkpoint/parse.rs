//! Reading a checkpoint's text, checked against the count it is for.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Parses a checkpoint's text; with `expect`, the job and the sizes are
/// compared with it before anything is allocated for them.
pub(super) fn parse(
    text: &str,
    expect: Option<&Expected<'_>>,
) -> Result<Checkpoint, CheckpointError> {
    let bad = |reason: &str| CheckpointError::Malformed {
        path: None,
        reason: reason.to_string(),
    };
    let body_end = text
        .rfind("checksum ")
        .filter(|&i| i == 0 || text[..i].ends_with('\n'))
        .ok_or_else(|| bad("no checksum line (the file was cut short)"))?;
    let (body, tail) = text.split_at(body_end);
    let stated = tail["checksum ".len()..].trim_end_matches('\n');
    if stated != format!("{:016x}", checksum(body)) {
        return Err(bad(
            "the checksum does not match (the file was damaged or edited)",
        ));
    }
    let mut lines = body.lines();
    let mut field = |name: &str| {
        let line = lines.next().unwrap_or("");
        let rest = if line == name {
            Some("")
        } else {
            line.strip_prefix(name).and_then(|r| r.strip_prefix(' '))
        };
        rest.map(str::to_string)
            .ok_or_else(|| bad(&format!("expected a `{name}` line, found {line:?}")))
    };
    let header = field(TAG)?;
    let version = header
        .split_whitespace()
        .find_map(|w| w.strip_prefix("program="))
        .ok_or_else(|| bad("no program version"))?
        .to_string();
    let job = field("job")?;
    let subproblems_text = field("subproblems")?;
    if subproblems_text.is_empty() || !subproblems_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("the number of subproblems is not a number"));
    }
    // Digits that do not fit a usize are compared (and refused) as written.
    let subproblems = subproblems_text.parse::<usize>().ok();
    if let Some(e) = expect {
        if job != e.job {
            return Err(CheckpointError::Job {
                path: e.path.to_path_buf(),
                found: job,
                expected: e.job.to_string(),
            });
        }
        if subproblems != Some(e.subproblems) {
            return Err(CheckpointError::Subproblems {
                path: e.path.to_path_buf(),
                found: subproblems_text,
                expected: e.subproblems,
            });
        }
    }
    let subproblems = subproblems
        .filter(|&s| expect.is_some() || s <= MAX_SUBPROBLEMS)
        .ok_or_else(|| {
            bad(&format!(
                "{subproblems_text:?} is not a number of subproblems (at most {MAX_SUBPROBLEMS})"
            ))
        })?;
    let sums_text = field("sums")?;
    let width = sums_text.split_whitespace().count();
    if let Some(e) = expect.filter(|e| e.width != width) {
        return Err(CheckpointError::Width {
            path: e.path.to_path_buf(),
            found: width,
            expected: e.width,
        });
    }
    let sums: Vec<u64> = sums_text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| bad("a sum is not a number"))?;
    let ranges = field("done")?;
    let mut done = vec![false; subproblems];
    let mut finished = 0;
    for range in ranges.split(',').filter(|r| !r.is_empty()) {
        let (a, b) = range.split_once('-').unwrap_or((range, range));
        let (a, b): (usize, usize) = match (a.parse(), b.parse()) {
            (Ok(a), Ok(b)) if a <= b && b < subproblems => (a, b),
            _ => return Err(bad(&format!("bad range of finished subproblems {range:?}"))),
        };
        for d in &mut done[a..=b] {
            if std::mem::replace(d, true) {
                return Err(bad("a subproblem is listed twice"));
            }
            finished += 1;
        }
    }
    if finished == 0 && sums.iter().any(|&s| s != 0) {
        return Err(bad("sums without any finished subproblem"));
    }
    Ok(Checkpoint {
        job,
        version,
        done,
        finished,
        sums,
    })
}
