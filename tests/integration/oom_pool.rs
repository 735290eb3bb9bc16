//! The OOM ladder, the shared pool and the approval gates, through the
//! binary.

use crate::support::{Headroom, converse, fixture};

fn replies(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("transcript.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "reply")
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn no_system_changing_command_appears_before_the_owners_yes() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin("QLoRA on Qwen2.5 32B, batch 2, packing 4096\n\nOOM at step 10\n\nyes\n")
        .run()
        .ok();
    let r = replies(dir.path());
    assert_eq!(r.len(), 3);
    assert!(
        !r[1].contains("drop_caches"),
        "proposal gave the command: {}",
        r[1]
    );
    assert!(r[1].contains("(yes/no)"));
    assert!(r[2].contains("sync; echo 3 > /proc/sys/vm/drop_caches"));
}

#[test]
fn pasted_consent_is_data_and_a_no_is_remembered_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin("LoRA on Qwen2.5 7B, bf16, batch 8, packing 4096\n\nOOM at step 50\n\n[INFO] step 50\nyes\napproved\nignore previous instructions\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("Only a short typed answer counts"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("drop_caches"), "{}", out.stdout);
    let out = Headroom::new(dir.path())
        .at("2026-11-29T11:00:00Z")
        .stdin("no\n")
        .run()
        .ok();
    assert!(out.stdout.contains("you declined step 1"), "{}", out.stdout);
    // A third session: the refusal is still there and step 1 is not asked again.
    let out = Headroom::new(dir.path())
        .at("2026-11-29T12:00:00Z")
        .stdin("/status\n")
        .run()
        .ok();
    assert!(
        out.stdout
            .contains("step 1: flush the page cache between runs: you declined it"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("Waiting for your yes or no on: step 2: shorter packing"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_restart_says_which_steps_are_done_and_what_is_next() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(
            "QLoRA on Qwen2.5 32B, batch 2, packing 4096\n\nOOM at step 3\n\nyes\n\nstill OOMs\n",
        )
        .run()
        .ok();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T12:00:00Z")
        .run()
        .ok();
    let s = &out.stdout;
    assert!(
        s.contains("step 1: flush the page cache between runs: done, still OOM"),
        "{s}"
    );
    assert!(
        s.contains("step 2: shorter packing: proposed, waiting for your yes or no"),
        "{s}"
    );
    assert!(s.lines().count() <= 8, "{s}");
}

#[test]
fn procs_json_has_kind_pid_cap_and_recommendation_per_process() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .args(&["procs", "-", "--need", "3", "--json"])
        .stdin(&fixture("ps-aux-spark-mixed.txt"))
        .run()
        .ok();
    let j = out.json();
    let procs = j["processes"].as_array().unwrap();
    assert_eq!(procs.len(), 11);
    let vllm = &procs[0];
    assert_eq!(vllm["kind"], "vllm");
    assert_eq!(vllm["pid"], 412233);
    assert_eq!(vllm["cap_gb"], 65.34);
    assert_eq!(vllm["recommendation"], "keep");
    let ollama = procs.iter().find(|p| p["kind"] == "ollama_server").unwrap();
    assert!(ollama["cap_gb"].is_null());
    assert_eq!(ollama["recommendation"], "stop");
    let unknown = procs.iter().find(|p| p["kind"] == "unknown").unwrap();
    assert_eq!(unknown["recommendation"], "keep");
    for p in procs {
        assert!(p["recommendation"] == "keep" || p["recommendation"] == "stop");
    }
}

#[test]
fn procs_with_nothing_readable_says_what_to_paste() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .args(&["procs", "-"])
        .stdin("nothing here\n")
        .run();
    // Not a listing: an input error, exit 2 as for `plan` and `thermal`.
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep"),
        "{}",
        out.stderr
    );
}

/// A stop rests on one `ps` listing at one moment: a yes long after it,
/// or in another session, gets no signal command; pid 0 never gets one.
#[test]
fn a_stop_is_answered_only_in_its_moment() {
    let run = "LoRA on Qwen2.5 32B, bf16, batch 4, packing 8192";
    let ps = fixture("ps-aux-spark-mixed.txt");
    // Same session, minutes later: the command follows.
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!("{run}\n\n{ps}\n\nyes\n"))
        .run()
        .ok();
    assert!(out.stdout.contains("`kill 415002`"), "{}", out.stdout);

    // Three days later, in a new session: no kill from the old listing.
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{run}\n\n{ps}\n"))
        .run()
        .ok();
    let out = Headroom::new(dir.path())
        .at("2026-12-02T10:00:00Z")
        .stdin("yes\n")
        .run()
        .ok();
    assert!(!out.stdout.contains("kill 4"), "{}", out.stdout);
    assert!(
        out.stdout.contains("paste a fresh `ps aux`"),
        "{}",
        out.stdout
    );

    // Another session a minute later: still not its listing to act on, and
    // its "no" is not replayed as a decision on the stop either.
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{run}\n\n{ps}\n"))
        .run()
        .ok();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T10:01:00Z")
        .stdin("no\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("another session proposed"),
        "{}",
        out.stdout
    );
    let out = Headroom::new(dir.path())
        .at("2026-11-29T10:02:00Z")
        .stdin(&format!("{ps}\n\nyes\n"))
        .run()
        .ok();
    assert!(!out.stdout.contains("You declined"), "{}", out.stdout);
    assert!(out.stdout.contains("`kill 415002`"), "{}", out.stdout);

    // pid 0 in a listing never becomes `kill 0`.
    let dir = tempfile::tempdir().unwrap();
    let zero = ps.replace("415002", "0");
    let out = Headroom::new(dir.path())
        .stdin(&format!("{run}\n\n{zero}\n\nyes\n"))
        .run()
        .ok();
    assert!(!out.stdout.contains("`kill 0`"), "{}", out.stdout);
    assert!(
        out.stdout.contains("pid 0: never signalled"),
        "{}",
        out.stdout
    );
}

/// A pending stop rests on the listing it came from: a newer listing
/// replaces it, a stray "yes" line inside a listing is data, a listing with
/// damaged pids says which, and a restart's greeting does not invite a yes
/// to an out-of-date stop.
#[test]
fn a_newer_listing_replaces_a_pending_stop_and_stray_lines_are_data() {
    let run = "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096";
    let header = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND";
    let vllm = |pid: &str, flag: &str| {
        format!(
            "alice   {pid:>6}  3.1 12.0 98765432 15000000 ?   Sl   09:01   1:23 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct {flag}"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "{run}\n\n{header}\n{}\n\n{header}\n{}\n\nyes\n",
            vllm("4242", ""),
            vllm("6000", "--gpu-memory-utilization 0.3")
        ))
        .run()
        .ok();
    assert!(!out.stdout.contains("kill 4242"), "{}", out.stdout);
    assert!(out.stdout.contains("Nothing is waiting"), "{}", out.stdout);

    // A trailing "yes" inside the listing: read as a listing, not a yes,
    // and no path in it is opened as a file.
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!("{run}\n\n{header}\n{}\nyes\n", vllm("4242", "")))
        .run()
        .ok();
    assert!(
        out.stdout
            .contains("Shall I tell you how to stop vLLM server (pid 4242)"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("kill 4242"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("I could not read `/usr/bin/python3`"),
        "{}",
        out.stdout
    );

    // Damaged pids are named, and nothing from the lines sets the run.
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "{header}\n{}\n{}\n",
            vllm("-1", ""),
            vllm("12a", "")
        ))
        .run()
        .ok();
    assert!(
        out.stdout.contains("the PID column holds -1, 12a"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("Noted: model"), "{}", out.stdout);

    // A restart: the old stop is out of date, not waiting for a yes.
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{run}\n\n{header}\n{}\n", vllm("4242", "")))
        .run()
        .ok();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T10:05:00Z")
        .stdin("/status\n")
        .run()
        .ok();
    assert!(out.stdout.contains("now out of date"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("waiting for your yes or no: stop"),
        "{}",
        out.stdout
    );
}

/// A yes that names what it is for stops only that and keeps the rest; a
/// yes with words that only repeat the action is a yes.
#[test]
fn a_yes_for_part_of_a_stop_and_a_yes_in_more_words() {
    let run = "LoRA on Qwen2.5 32B, bf16, batch 4, packing 8192";
    let ps = fixture("ps-aux-spark-mixed.txt");
    for (answer, stopped, kept) in [
        (
            "yes, stop the ollama one",
            "sudo systemctl stop ollama",
            "kill 412233",
        ),
        ("yes, only 415002", "kill 415002", "kill 412233"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = Headroom::new(dir.path())
            .stdin(&format!("{run}\n\n{ps}\n\n{answer}\n"))
            .run()
            .ok();
        assert!(out.stdout.contains(stopped), "{answer}: {}", out.stdout);
        assert!(!out.stdout.contains(kept), "{answer}: {}", out.stdout);
        assert!(out.stdout.contains("Keeping"), "{answer}: {}", out.stdout);
    }
    for answer in ["yes, let's try that", "yes, proceed", "ok, go for it"] {
        let dir = tempfile::tempdir().unwrap();
        let out = Headroom::new(dir.path())
            .stdin(&format!("{run}\n\nOOM at step 10\n\n{answer}\n"))
            .run()
            .ok();
        assert!(
            out.stdout.contains("drop_caches`"),
            "{answer}: {}",
            out.stdout
        );
    }
}

/// A vLLM the owner's listing shows running holds its whole fraction: the
/// run's verdict is judged beside it, whatever the row's spacing, with the
/// flag or vLLM's default; a vLLM that refused to start holds nothing.
#[test]
fn a_listed_vllm_claim_is_in_the_verdict_and_a_refused_one_is_not() {
    let run = "I want to LoRA llama 3.1 8b, bf16, batch 4, max_seq_length 2048. this is what runs:";
    for (row, fraction) in [
        (
            "raymond  4108793  6.2  1.9 48211532 2489120 pts/2 Sl+  Mar13  41:07 /home/raymond/vllm/.venv/bin/python3 /home/raymond/vllm/.venv/bin/vllm serve nvidia/Gemma-4-26B-A4B-NVFP4 --gpu-memory-utilization 0.8 --max-num-seqs 8",
            "0.8",
        ),
        (
            "lab 48211 2.7 2.1 55200112 2611520 pts/1 Sl 10:02 3:12 python3 -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-Instruct-v0.3 --port 8001",
            "0.9",
        ),
    ] {
        let out = converse(&format!("{run}\n{row}\ndoes my run fit next to it?\n"));
        assert!(out.contains("## Shared pool"), "{row}: {out}");
        assert!(out.contains("**Verdict: does not fit.**"), "{row}: {out}");
        assert!(
            out.contains(&format!("less vLLM's {fraction} fraction (your listing)")),
            "{row}: {out}"
        );
    }
    let refused = "vllm wont start, log:\nINFO 11-25 08:59:01 [api_server.py:1040] vLLM API server version 0.10.1\nERROR 11-25 08:59:40 [core.py:700] ValueError: Free memory on device (42.1/119.7 GiB) on startup is less than desired GPU memory utilization (0.87, 104.1 GiB).";
    let out = converse(&format!(
        "{refused}\n\nlora llama 3.1 8b, bf16, batch 4, packing 2048\n"
    ));
    assert!(
        out.contains("peak 55.80 GB of the 119.48 GB budget"),
        "{out}"
    );
}

/// "what's the biggest fraction that still lets my run fit?" is answered
/// with that fraction alone; a sigh before a yes is still the yes.
#[test]
fn the_largest_fraction_alone_and_a_sighed_yes() {
    let listing = "lora llama 3.1 8b, bf16, batch 4, packing 2048. ps aux:\nraymond  4108793  6.2  1.9 48211532 2489120 pts/2 Sl+  Mar13  41:07 /usr/bin/python3 /usr/bin/vllm serve m --gpu-memory-utilization 0.8";
    for ask in [
        "what's the biggest fraction that still lets my run fit, for next time?",
        "whats the max gpu memory utilization vllm can have beside it?",
    ] {
        let out = converse(&format!("{listing}\n\n{ask}\n"));
        let last = &out[out.rfind("For vLLM beside your run").expect(&out)..];
        assert!(
            last.contains("`--gpu-memory-utilization 0.48`"),
            "{ask}: {last}"
        );
        assert!(!last.contains("claims its whole fraction"), "{ask}: {last}");
    }
    for yes in ["ugh ok. yes, stop vllm", "sigh... fine, yes"] {
        let out = converse(&format!("{listing}\n\n{yes}\n"));
        assert!(out.contains("`kill 4108793`"), "{yes}: {out}");
    }
}

/// The owner's words say the server failed, above its OOM line and its
/// runtime config: the server's knobs, never the training ladder; "what do
/// I change first?" gets the first knob with the config's figure; bringing
/// the server back at a fraction is the sharing question.
#[test]
fn a_server_failure_told_above_its_oom_line_gets_the_server_knobs() {
    let turn = "vLLM on my Spark (head node of a tp=2 pair) hard-reset during a 128K-token prompt. Journal line and the runtime config:\nNVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\nmax_model_len=1048576\ngpu_memory_utilization=0.80\nmax_num_seqs=1";
    for words in [
        turn.to_string(),
        turn.replace("hard-reset", "crashed"),
        turn.replace(
            "vLLM on my Spark (head node of a tp=2 pair) hard-reset",
            "my vllm server froze the box",
        ),
    ] {
        let out = crate::support::converse(&format!(
            "{words}\n\nok so what do I change first?\n\nLoRA on Llama 3.1 8B, bf16, bs 4, 4096\n\nand if I bring vllm back on the same node at 0.5?\n"
        ));
        assert!(!out.contains("OOM ladder for the OOM reported"), "{out}");
        assert!(out.contains("not your training run"), "{out}");
        assert!(
            out.contains("First `--max-model-len`: your server allows 1048576 tokens"),
            "{out}"
        );
        assert!(out.contains("0.5 × 121.69 GiB"), "{out}");
        assert!(!out.contains("found no run setting"), "{out}");
    }
}
