use super::*;

fn greeting_child(then: &str) -> Session {
    let mut command = Command::new("python3");
    command.args([
        "-c",
        &format!("import os\nos.write(4, b'{{\"hello\": {{\"protocol\": 1}}}}\\n')\n{then}"),
    ]);
    let mut session = Session::spawn(command, 1024, (1 << 20, 1 << 30), None, None, None).unwrap();
    let hello = session
        .first_message(Instant::now() + Duration::from_secs(10))
        .unwrap();
    assert!(hello.get("hello").is_some(), "{hello}");
    session
}

fn ask(session: &mut Session) -> Result<Value, NoReply> {
    let mut request = serde_json::Map::new();
    request.insert("id".into(), 1.into());
    session.request(
        request,
        Clocks {
            cpu: Duration::from_millis(300),
            deadline: Instant::now() + Duration::from_secs(5),
        },
        ReplyBound::START,
    )
}

/// A child that greets, then sends valid progress messages nobody asked
/// for without end, is stopped as a protocol error at once, not at the
/// deadline (it spends its time waiting on the pipe, not on the CPU).
#[test]
fn a_flood_of_progress_messages_is_a_protocol_error_at_once() {
    let mut session = greeting_child(
        "line = b'{\"progress\": {\"op_index\": 7}}\\n' * 1000\nwhile True:\n    os.write(4, line)\n",
    );
    let started = Instant::now();
    let result = ask(&mut session);
    assert!(
        matches!(
            &result,
            Err(NoReply::Protocol(Violation::UnaskedProgress { at: Some(at), .. }))
                if at.to_wire() == 7
        ),
        "{result:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

/// A few unasked progress messages (a driver's last word before an exit)
/// are fine: the reply after them counts.
#[test]
fn a_few_unasked_progress_messages_are_not_a_flood() {
    let mut session = greeting_child(
        "os.write(4, b'{\"progress\": {\"op_index\": 0}}\\n' * 3 + b'{\"id\": 1, \"output\": []}\\n')\nimport time\ntime.sleep(5)\n",
    );
    let reply = ask(&mut session).unwrap();
    assert_eq!(reply["id"], 1, "{reply}");
}

/// A reply the child wrote before the grader came to look, however late
/// the grader (a starved machine) comes, is read and counts: the wall
/// clock is called on the child, not on the grader's own delay.
#[test]
fn a_reply_waiting_in_the_pipe_at_the_deadline_counts() {
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("written");
    let mut session = greeting_child(&format!(
        "import time\ntime.sleep(0.2)\nos.write(4, b'{{\"id\": 1, \"output\": []}}\\n')\nopen({:?}, 'w').close()\ntime.sleep(30)\n",
        written.to_str().unwrap()
    ));
    let until = Instant::now() + Duration::from_secs(30);
    while !written.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(written.exists(), "the child never wrote its reply");
    let mut request = serde_json::Map::new();
    request.insert("op".into(), "ping".into());
    let reply = session
        .request(
            request,
            Clocks {
                cpu: Duration::from_millis(300),
                deadline: Instant::now(),
            },
            ReplyBound::START,
        )
        .unwrap();
    assert_eq!(reply["id"], 1, "{reply}");
}
