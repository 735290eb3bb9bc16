//! Two or more listings pasted one under the other, with no prompt or
//! blank line between them: each is read by its own reader, alone in a turn
//! or under the owner's words.

use crate::support::{Headroom, fixture};

const RUN: &str = "LoRA on Qwen2.5 7B, bf16, batch 2, packing 1024";

fn reply_to(paste: &str, words: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let turn = if words.is_empty() {
        paste.to_string()
    } else {
        format!("{words}\n{paste}")
    };
    Headroom::new(dir.path())
        .stdin(&format!("{RUN}\n\n{turn}\n"))
        .run()
        .ok()
        .stdout
}

#[test]
fn each_stacked_listing_is_read_by_its_own_reader() {
    let free = fixture("free-h-spark.txt");
    let cases = [
        (
            format!("{}{free}", fixture("ollama-ps.txt")),
            "`gemma3:latest` holds 6.6 GB",
        ),
        (
            format!("{free}{}", fixture("ollama-ps.txt")),
            "`gemma3:latest` holds 6.6 GB",
        ),
        (
            format!("{}{free}", fixture("ps-aux-spark-mixed.txt")),
            "## Shared pool:",
        ),
        (
            format!("{free}{}", fixture("nvidia-smi-table-gb10-vllm.txt")),
            "Your nvidia-smi table: GPU 0 NVIDIA GB10",
        ),
    ];
    for (paste, other) in &cases {
        for words in ["", "this is what's running and free -h:"] {
            let out = reply_to(paste, words);
            assert!(
                out.contains("Noted: your `free` output (available 115Gi)"),
                "{words:?} {other}: {out}"
            );
            assert!(out.contains(other), "{words:?} {other}: {out}");
        }
    }
}

#[test]
fn a_table_is_not_cut_at_its_own_rows() {
    // The nvidia-smi table has borders and rows that look like headers of
    // nothing; it stays one paste.
    let out = reply_to(&fixture("nvidia-smi-table-gb10-vllm.txt"), "");
    assert_eq!(out.matches("Your nvidia-smi table").count(), 1, "{out}");
    assert!(!out.contains("could not read"), "{out}");
}

/// Piped mode ends a turn at a blank line, but some output carries its own:
/// nvidia-smi between the GPU table and `Processes:`, a chained traceback
/// before "The above exception was …". Those stay one paste.
#[test]
fn a_blank_line_inside_one_output_does_not_split_the_turn() {
    let smi = fixture("nvidia-smi-table-gb10-vllm.txt");
    assert!(
        smi.contains("+\n\n+"),
        "the fixture keeps nvidia-smi's blank line"
    );
    for words in ["", "what's using my memory?"] {
        let out = reply_to(&smi, words);
        assert!(out.contains("pid 577729"), "{words}: {out}");
        assert!(!out.contains("No process rows"), "{words}: {out}");
        // The listing names who holds memory: no stock explainer of how
        // to find out.
        assert!(
            !out.contains("`free` says how much the kernel"),
            "{words}: {out}"
        );
    }
    let chained = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    trainer.train()\nRuntimeError: CUDA error: out of memory\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"train.py\", line 90, in <module>\n    raise SystemExit(1)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.03 GiB is free.";
    let out = reply_to(chained, "it died at step 40");
    assert_eq!(out.matches("OOM noted").count(), 1, "{out}");
    assert!(!out.contains("found no run setting"), "{out}");
}

/// A `ps aux` row the terminal wrapped is joined back onto its line: the
/// listing is read (the server's stop proposed), and nothing in it (the
/// model it serves, its start time) reaches the run.
#[test]
fn a_wrapped_listing_row_is_read_and_never_becomes_the_run() {
    let wrapped = "USER         PID %CPU %MEM      VSZ      RSS TTY      STAT START   TIME COMMAND\nowner      41500  3.2 40.1 98304512 52428800 ?        Sl   13:02   5:11 python3 -m vllm.entrypoints.open\n8000 --max-model-len 8192 ai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port\nowner       2210  0.0  0.0    12345     5120 pts/0    Ss   09:01   0:00 -bash";
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "QLoRA on Llama 3.1 70B, batch 1, packing 2048\n\n{wrapped}\n\nyes\n"
        ))
        .run()
        .ok()
        .stdout;
    assert!(!out.contains("Llama 3.1 70B → Llama 3.1 8B"), "{out}");
    assert!(!out.contains("Run start"), "{out}");
    assert!(out.contains("`kill 41500`"), "{out}");
}
