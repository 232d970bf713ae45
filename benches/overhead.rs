//! Benchmarks, reported as ratios measured side by side in one run (these
//! machines are shared and noisy; absolute times are printed for context).
//!
//! 1. The reference route (FNV state of "node:" cached per node, names kept
//!    sorted, 16 nodes scored at once at the CPU's widest vector level)
//!    against the same loop one node at a time and a naive allocating
//!    route, per node scored, for N = 3 to 10,000 nodes.
//! 2. The grader's cost per operation when grading a Python submission
//!    (the slope between a 10,000- and a 100,000-operation case, so fixed
//!    costs cancel), with and without the sandbox, against the same replay
//!    in one plain Python process with no grader.
//!
//! 3. The verdict rows of the speed table ([`verdicts`]): the samples
//!    against a plain replay and against pytest, eleven mixed cases, a
//!    wrong answer explained against a correct one graded, a class's cost
//!    per submission and two jobs against one, a correct Python submission
//!    on each challenge's suite (wall and CPU), a class of forty against a
//!    pool of plain replays, an endless loop's wait; each with its goal.
//! 4. The vnode-ring reference (a B-tree of entries) against a sorted Vec,
//!    for lookups and for adding and removing a node, at 100 to 10,000
//!    nodes of 8 points.
//!
//! 5. A student's repository holding the hidden tests and thousands of
//!    files against plain folders ([`verdicts::repository`]).
//!
//! Run with `cargo bench --bench overhead` (`-- ring`, say, for one).

#[path = "overhead/verdicts.rs"]
mod verdicts;

use reference::h32;
use reference::rendezvous::Router;
use serde_json::Value;
use std::hint::black_box;
use std::path::{Path, PathBuf};
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
    use reference::lanes::{Level, first_maximum_at};
    println!(
        "reference route, per node scored: the widest vector level ({:?}) against the scalar loop (both on cached FNV states) and a naive allocating route:",
        Level::best()
    );
    println!(
        "{:>6}  {:>10}  {:>10}  {:>10}  {:>13}  {:>12}",
        "nodes", "route ns", "scalar ns", "naive ns", "vs scalar", "vs naive"
    );
    let keys: Vec<String> = (0..2000).map(|i| format!("user:{i}")).collect();
    for n in [3usize, 16, 100, 1000, 10_000] {
        let names: Vec<String> = (0..n).map(|i| format!("cache-{i}")).collect();
        let router = Router::new(names.iter().map(String::as_str));
        let mut sorted = names.clone();
        sorted.sort();
        let states: Vec<u32> = sorted
            .iter()
            .map(|s| reference::hash::fnv1a_extend(reference::hash::fnv1a(s.as_bytes()), b":"))
            .collect();
        let scalar_route = |key: &str| {
            first_maximum_at(Level::Scalar, &states, key.as_bytes()).map(|(at, _)| &sorted[at])
        };
        // The three must agree, or the comparison means nothing.
        for key in keys.iter().take(50) {
            assert_eq!(router.route(key), naive_route(&names, key));
            assert_eq!(router.route(key), scalar_route(key).map(String::as_str));
        }
        // About 400,000 node scores per timing, whatever N.
        let take = (400_000 / n).clamp(20, keys.len());
        let time = |f: &dyn Fn(&str)| {
            fastest(7, || {
                for key in &keys[..take] {
                    f(black_box(key));
                }
            })
        };
        let routed = time(&|key| {
            black_box(router.route(key));
        });
        let scalar = time(&|key| {
            black_box(scalar_route(key));
        });
        let naive = time(&|key| {
            black_box(naive_route(black_box(&names), key));
        });
        let per = |d: Duration| d.as_nanos() as f64 / (take * n) as f64;
        println!(
            "{n:>6}  {:>10.2}  {:>10.2}  {:>10.2}  {:>12.1}x  {:>11.1}x",
            per(routed),
            per(scalar),
            per(naive),
            per(scalar) / per(routed),
            per(naive) / per(routed)
        );
    }
}

/// A ring as a sorted Vec of (position, node): the same binary search for
/// lookups as the B-tree, but adding or removing a node shifts the entries
/// after it.
struct VecRing {
    k: usize,
    entries: Vec<(u32, String)>,
}

impl VecRing {
    fn lookup(&self, key: &str) -> Option<&str> {
        let h = h32(key);
        let at = self.entries.partition_point(|e| e.0 < h);
        let e = self.entries.get(at).or(self.entries.first())?;
        Some(&e.1)
    }
    fn add(&mut self, node: &str) {
        for i in 0..self.k {
            let entry = (h32(&format!("{node}#{i}")), node.to_owned());
            let at = self.entries.partition_point(|e| *e < entry);
            self.entries.insert(at, entry);
        }
    }
    fn remove(&mut self, node: &str) {
        self.entries.retain(|e| e.1 != node);
    }
}

fn bench_ring() {
    use reference::vnode_ring::Ring;
    println!("\nvnode-ring reference (B-tree) vs a sorted Vec, k = 8:");
    println!(
        "{:>6}  {:>16}  {:>16}  {:>18}  {:>18}",
        "nodes", "lookup ns tree", "lookup ns vec", "add+remove us tree", "add+remove us vec"
    );
    let keys: Vec<String> = (0..20_000).map(|i| format!("obj/{i}")).collect();
    for n in [100usize, 1000, 10_000] {
        let names: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
        let mut tree = Ring::new(names.iter().map(String::as_str), 8);
        let mut vec = VecRing {
            k: 8,
            entries: Vec::new(),
        };
        for name in &names {
            vec.add(name);
        }
        for key in keys.iter().take(200) {
            assert_eq!(tree.lookup(key), vec.lookup(key), "the two rings disagree");
        }
        let lookups = |f: &dyn Fn(&str) -> Option<String>| {
            fastest(5, || {
                for key in &keys {
                    black_box(f(black_box(key)));
                }
            })
        };
        let tree_lookup = lookups(&|k| tree.lookup(k).map(str::to_owned));
        let vec_lookup = lookups(&|k| vec.lookup(k).map(str::to_owned));
        let churn = 200;
        let tree_churn = fastest(3, || {
            for i in 0..churn {
                let node = format!("extra-{i}");
                tree.add(&node);
                tree.remove(&node);
            }
        });
        let vec_churn = fastest(3, || {
            for i in 0..churn {
                let node = format!("extra-{i}");
                vec.add(&node);
                vec.remove(&node);
            }
        });
        let ns = |d: Duration| d.as_nanos() as f64 / keys.len() as f64;
        let us = |d: Duration| d.as_secs_f64() * 1e6 / churn as f64;
        println!(
            "{n:>6}  {:>16.1}  {:>16.1}  {:>18.2}  {:>18.2}   lookups {:.2}x, changes {:.1}x",
            ns(tree_lookup),
            ns(vec_lookup),
            us(tree_churn),
            us(vec_churn),
            ns(vec_lookup) / ns(tree_lookup),
            us(vec_churn) / us(tree_churn),
        );
    }
}

const PLAIN_REPLAY: &str = r#"
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("submission", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
for case, expected in zip(sys.argv[2::2], sys.argv[3::2]):
    with open(case) as f:
        args, ops = json.load(f)
    router = module.Router(*args)
    output = [getattr(router, op[0])(*op[1:]) for op in ops]
    # A wrong submission's replay reads the expected answers and goes on.
    with open(expected) as f:
        assert output == json.load(f) or "BENCH_WRONG" in os.environ, "the plain replay disagrees with the reference"
"#;

/// The real binary behind `python3`.
fn real_python() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// Runs `command`, which must succeed.
fn succeeds(command: &mut Command) {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes a case of `n` operations on 10 nodes (mostly routes, some
/// churn) with its expected output into `dir`, a `--tests` folder.
fn write_case(dir: &Path, n: u32) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let nodes: Vec<String> = (0..10).map(|i| format!("cache-{i}")).collect();
    let mut model = Router::new(nodes.iter().map(String::as_str));
    let mut ops = Vec::with_capacity(n as usize);
    let mut expected = Vec::with_capacity(n as usize);
    for i in 0..n {
        let (name, operand) = match i % 10 {
            0 => ("add", format!("cache-{}", i % 13)),
            5 => ("remove", format!("cache-{}", (i / 10) % 13)),
            _ => ("route", format!("user:{i}")),
        };
        expected.push(match name {
            "add" => {
                model.add(&operand);
                Value::Null
            }
            "remove" => {
                model.remove(&operand);
                Value::Null
            }
            _ => model.route(&operand).map_or(Value::Null, Into::into),
        });
        ops.push(serde_json::json!([name, operand]));
    }
    let case = dir.join("case.json");
    let expected_path = dir.join("case.expected.json");
    std::fs::write(&case, serde_json::json!([[nodes], ops]).to_string()).unwrap();
    std::fs::write(&expected_path, Value::from(expected).to_string()).unwrap();
    (case, expected_path)
}

/// The grader's cost per operation, as the slope between a small and a
/// large case (which cancels every fixed cost: start-up, interpreter
/// resolution, the sandbox probe), next to a plain Python replay's slope.
fn bench_grader_overhead() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let submission = root.join("submissions/python/correct_class.py");
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let python = real_python();
    let run = succeeds;
    const SMALL: u32 = 10_000;
    const LARGE: u32 = 100_000;
    let sizes = [SMALL, LARGE];
    let cases: Vec<(PathBuf, PathBuf, PathBuf)> = sizes
        .iter()
        .map(|&n| {
            let tests = dir.path().join(format!("tests-{n}"));
            let (case, expected) = write_case(&tests, n);
            (tests, case, expected)
        })
        .collect();
    // Rounds interleave every variant and size, so a change in the
    // machine's load touches all of them; each keeps its fastest time.
    let runs = 7;
    let mut times = vec![[Duration::MAX; 3]; cases.len()];
    for _ in 0..runs {
        for (i, (tests, case, expected)) in cases.iter().enumerate() {
            // The plain replay gets the driver's interpreter flags, so the
            // comparison measures the grader, not the flags.
            let plain = fastest(1, || {
                run(Command::new(&python)
                    .args(["-B", "-s", "-X", "utf8"])
                    .arg(&replay)
                    .arg(&submission)
                    .arg(case)
                    .arg(expected))
            });
            let grade = |sandbox: bool| {
                fastest(1, || {
                    let mut command = Command::new(env!("CARGO_BIN_EXE_grader"));
                    command
                        .current_dir(root)
                        .args(["grade", "--format", "json", "--tests"])
                        .arg(tests)
                        .arg(&submission)
                        .stdout(std::process::Stdio::null());
                    if !sandbox {
                        command.arg("--no-sandbox");
                    }
                    run(&mut command)
                })
            };
            for (k, t) in [plain, grade(false), grade(true)].into_iter().enumerate() {
                times[i][k] = times[i][k].min(t);
            }
        }
    }
    let slope = |k: usize| {
        (times[1][k].as_nanos() as f64 - times[0][k].as_nanos() as f64) / f64::from(LARGE - SMALL)
    };
    let fixed = |k: usize| times[0][k].as_secs_f64() * 1e3 - slope(k) * f64::from(SMALL) / 1e6;
    println!(
        "\ngrading a Python submission, cost per operation (slope between {SMALL} and {LARGE} operations, fastest of {runs}):"
    );
    for (k, name) in [
        "plain Python replay",
        "grader, --no-sandbox",
        "grader, sandboxed",
    ]
    .iter()
    .enumerate()
    {
        println!(
            "  {name:<22} {:>7.0} ns/op   fixed {:>6.1} ms   ({:.0} ms for {LARGE} ops)",
            slope(k),
            fixed(k),
            times[1][k].as_secs_f64() * 1e3
        );
    }
    println!(
        "  per operation: grader / plain = {:.3} without the sandbox, {:.3} with it; the sandbox adds {:+.1}%",
        slope(1) / slope(0),
        slope(2) / slope(0),
        (slope(2) / slope(1) - 1.0) * 100.0
    );
}

fn main() {
    // `cargo test --benches` runs this with --bench absent: keep it quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("benchmarks skipped: run `cargo bench --bench overhead`");
        return;
    }
    // `cargo bench --bench overhead -- ring` runs the named ones only.
    let benches: [(&str, fn()); 11] = [
        ("route", bench_route),
        ("suites", verdicts::suites),
        ("samples", verdicts::samples),
        ("mixed", verdicts::mixed),
        ("wrong", verdicts::wrong_answer),
        ("batch", verdicts::batch),
        ("class", verdicts::class),
        ("endless", verdicts::endless),
        ("repository", verdicts::repository),
        ("ring", bench_ring),
        ("overhead", bench_grader_overhead),
    ];
    let named: Vec<String> = std::env::args()
        .filter(|a| benches.iter().any(|(n, _)| n == a))
        .collect();
    for (name, bench) in benches {
        if named.is_empty() || named.iter().any(|n| n == name) {
            bench();
        }
    }
}
