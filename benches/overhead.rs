//! Benchmarks, reported as ratios measured side by side in one run (these
//! machines are shared and noisy; absolute times are printed for context).
//!
//! 1. The reference route (FNV state of "node:" cached per node, names kept
//!    sorted) against a naive allocating route, per node scored, for
//!    N = 3, 100 and 1,000 nodes.
//! 2. The grader's overhead when grading a Python submission on a
//!    100,000-operation case, against the same replay in one plain Python
//!    process with no grader.
//!
//! Run with `cargo bench --bench overhead`.

use reference::h32;
use reference::rendezvous::Router;
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The spec read literally: build each scored string, hash it, keep the best.
fn naive_route<'a>(nodes: &'a [String], key: &str) -> Option<&'a str> {
    let mut best: Option<(u32, &str)> = None;
    for n in nodes {
        let s = h32(&format!("{n}:{key}"));
        if best.is_none_or(|(bs, bn)| s > bs || (s == bs && n.as_str() < bn)) {
            best = Some((s, n));
        }
    }
    best.map(|(_, n)| n)
}

/// The fastest of `runs` timings of `f`.
fn fastest(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap()
}

fn bench_route() {
    println!("reference route vs naive allocating route, per node scored:");
    println!(
        "{:>6}  {:>12}  {:>12}  {:>7}",
        "nodes", "cached ns", "naive ns", "speedup"
    );
    let keys: Vec<String> = (0..2000).map(|i| format!("user:{i}")).collect();
    for n in [3usize, 100, 1000] {
        let names: Vec<String> = (0..n).map(|i| format!("cache-{i}")).collect();
        let router = Router::new(names.iter().map(String::as_str));
        // The two must agree, or the comparison means nothing.
        for key in keys.iter().take(50) {
            assert_eq!(router.route(key), naive_route(&names, key));
        }
        // About 200,000 node scores per timing, whatever N.
        let take = (200_000 / n).clamp(20, keys.len());
        let cached = fastest(5, || {
            for key in &keys[..take] {
                black_box(router.route(black_box(key)));
            }
        });
        let naive = fastest(5, || {
            for key in &keys[..take] {
                black_box(naive_route(black_box(&names), black_box(key)));
            }
        });
        let per = |d: Duration| d.as_nanos() as f64 / (take * n) as f64;
        println!(
            "{n:>6}  {:>12.2}  {:>12.2}  {:>6.1}x",
            per(cached),
            per(naive),
            per(naive) / per(cached)
        );
    }
}

const PLAIN_REPLAY: &str = r#"
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("submission", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
with open(sys.argv[2]) as f:
    args, ops = json.load(f)
router = module.Router(*args)
output = [getattr(router, op[0])(*op[1:]) for op in ops]
with open(sys.argv[3]) as f:
    assert output == json.load(f), "the plain replay disagrees with the reference"
"#;

fn bench_grader_overhead() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("tests");
    std::fs::create_dir(&tests).unwrap();
    // 10 nodes, 100,000 operations: mostly routes, some churn.
    let nodes: Vec<String> = (0..10).map(|i| format!("cache-{i}")).collect();
    let mut ops = Vec::with_capacity(100_000);
    let mut model = Router::new(nodes.iter().map(String::as_str));
    let mut expected = Vec::with_capacity(100_000);
    for i in 0..100_000u32 {
        let op = match i % 10 {
            0 => serde_json::json!(["add", format!("cache-{}", i % 13)]),
            5 => serde_json::json!(["remove", format!("cache-{}", (i / 10) % 13)]),
            _ => serde_json::json!(["route", format!("user:{i}")]),
        };
        let (name, operand) = (op[0].as_str().unwrap(), op[1].as_str().unwrap());
        expected.push(match name {
            "add" => {
                model.add(operand);
                serde_json::Value::Null
            }
            "remove" => {
                model.remove(operand);
                serde_json::Value::Null
            }
            _ => model
                .route(operand)
                .map_or(serde_json::Value::Null, Into::into),
        });
        ops.push(op);
    }
    let case = tests.join("big.json");
    let expected_path = tests.join("big.expected.json");
    std::fs::write(&case, serde_json::json!([[nodes], ops]).to_string()).unwrap();
    std::fs::write(
        &expected_path,
        serde_json::Value::from(expected).to_string(),
    )
    .unwrap();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let submission = root.join("submissions/python/correct_class.py");

    let python = String::from_utf8(
        Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_owned();
    let run = |command: &mut Command| {
        let out = command.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let runs = 3;
    let plain = fastest(runs, || {
        run(Command::new(&python)
            .arg("-B")
            .arg(&replay)
            .arg(&submission)
            .arg(&case)
            .arg(&expected_path))
    });
    let graded = fastest(runs, || {
        run(Command::new(env!("CARGO_BIN_EXE_grader"))
            .current_dir(root)
            .args(["grade", "--format", "json", "--tests"])
            .arg(&tests)
            .arg(&submission)
            .stdout(std::process::Stdio::null()))
    });
    let per_op = |d: Duration| d.as_nanos() as f64 / 100_000.0;
    println!(
        "\ngrading a Python submission on a 100,000-operation case (fastest of {runs}, start-up included):"
    );
    println!(
        "  plain Python replay: {:>8.1} ms ({:.0} ns/op)",
        plain.as_secs_f64() * 1e3,
        per_op(plain)
    );
    println!(
        "  through the grader:  {:>8.1} ms ({:.0} ns/op)",
        graded.as_secs_f64() * 1e3,
        per_op(graded)
    );
    println!(
        "  ratio {:.2}; grader overhead {:.0} ns/op",
        graded.as_secs_f64() / plain.as_secs_f64(),
        per_op(graded) - per_op(plain)
    );
}

fn main() {
    // `cargo test --benches` runs this with --bench absent: keep it quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("benchmarks skipped: run `cargo bench --bench overhead`");
        return;
    }
    bench_route();
    bench_grader_overhead();
}
