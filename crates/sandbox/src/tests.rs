use super::*;

#[test]
fn a_command_past_its_limit_is_stopped_with_its_children() {
    let mut command = Command::new("sh");
    command.args(["-c", "sleep 30 & sleep 30; echo never"]);
    let started = Instant::now();
    let finished = run_to_end(command, Duration::from_millis(200), 1024).unwrap();
    assert!(finished.timed_out);
    assert!(finished.status.is_none());
    // The background sleep held stdout too: had it survived, joining
    // the reader would have waited for it.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!finished.stdout.contains("never"));
}

#[test]
fn a_flood_is_capped_and_drained_to_the_end() {
    let mut command = Command::new("sh");
    command.args([
        "-c",
        "head -c 5000000 /dev/zero | tr '\\\\0' x; echo; echo done >&2",
    ]);
    let finished = run_to_end(command, Duration::from_secs(30), 1000).unwrap();
    assert!(!finished.timed_out);
    assert!(finished.status.unwrap().success());
    assert_eq!(finished.stdout.len(), 1000);
    assert_eq!(finished.stderr, "done\n");
}
