//! A `ps aux` listing beside the run: what uncapped servers and other jobs
//! hold now counts against the run's budget, "is that bad?" gets the
//! verdict with and without the stops that wait, "stop ollama then" while
//! that stop waits proposes it again, and a statement naming batch and
//! context is no "which first?" question.

use crate::support::{converse, from_last};

const RUN: &str = "planning llama 3.1 8b qlora, batch 4, 2k ctx.";
const OLLAMA_SERVE: &str = "ollama      1873  0.3  0.4 12345678 523412 ?      Ssl  09:12   0:41 /usr/local/bin/ollama serve";
const VLLM_HALF: &str = "root        4410  2.1 28.7 98765432 35620144 ?    Sl   09:40   3:02 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-14B-Instruct --gpu-memory-utilization 0.5 --max-model-len 8192 --port 8000";
const OLLAMA_RUNNER: &str = "ollama      5121 12.4 14.2 30412288 17633280 ?    Sl   10:02   1:15 /usr/local/bin/ollama runner --model /usr/share/ollama/.ollama/models/blobs/sha256-6a0746a1ec1a --ctx-size 8192 --batch-size 512 --n-gpu-layers 49 --threads 20 --parallel 1 --port 40113";
const LLAMA_SERVER: &str = "me          7002 40.1 20.3 41000000 25165824 pts/2  Sl+  08:55  10:11 ./llama-server -m gpt-oss-20b.gguf -c 16384 -ngl 99 --port 8080";

fn listing(rows: &[&str]) -> String {
    let mut s = String::from(
        "USER         PID %CPU %MEM      VSZ      RSS TTY    STAT START   TIME COMMAND\n",
    );
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s
}

#[test]
fn what_an_uncapped_server_holds_now_comes_off_the_run_s_budget() {
    // 119.48 idle − 65.34 (vLLM 0.5 × 121.69 GiB) − 18.06 (RSS 17633280 KiB).
    let out = converse(&format!(
        "{RUN} what's eating my memory?\n{}",
        listing(&[OLLAMA_SERVE, VLLM_HALF, OLLAMA_RUNNER])
    ));
    assert!(out.contains("of the 36.08 GB budget"), "{out}");
    assert!(out.contains("**Verdict: does not fit.**"), "{out}");
    assert!(
        out.contains("Ollama runner (a loaded model) (pid 5121), resident now (your listing)"),
        "{out}"
    );
    // llama.cpp's server (24.00 GiB resident = 25.76 GB) beside an idle
    // budget: 119.48 − 25.77 (25,769,803,776 B, rounded up) = 93.71.
    let out = converse(&format!("{RUN}\n{}", listing(&[LLAMA_SERVER])));
    assert!(out.contains("of the 93.71 GB budget"), "{out}");
    // The small server process sits inside the OS reserve: not counted.
    let out = converse(&format!("{RUN}\n{}", listing(&[OLLAMA_SERVE, VLLM_HALF])));
    assert!(out.contains("of the 54.14 GB budget"), "{out}");
    // The settings of the servers never become the run's.
    assert!(
        !out.contains("batch 512") && !out.contains("pack 8192"),
        "{out}"
    );
}

#[test]
fn is_that_bad_after_a_listing_gets_the_verdict_before_and_after_the_stops() {
    for ask in ["is that bad?", "so is that a problem", "am I ok to launch?"] {
        let out = converse(&format!(
            "{RUN} what's eating my memory?\n{}\n{ask}\n",
            listing(&[OLLAMA_SERVE, VLLM_HALF, OLLAMA_RUNNER])
        ));
        let reply = from_last(&out, "Llama 3.1 8B QLoRA's peak 45.61 GB");
        assert!(reply.contains("36.08 GB budget"), "{ask}: {reply}");
        assert!(
            reply.contains("done, the budget is 54.14 GB: fits, margin +8.53 GB"),
            "{ask}: {reply}"
        );
        assert!(!reply.contains("kill "), "{ask}: {reply}");
    }
}

#[test]
fn naming_the_stop_that_waits_proposes_it_again_and_still_waits() {
    for ask in [
        "stop ollama then",
        "ok kill ollama",
        "alright, shut down ollama",
    ] {
        let out = converse(&format!(
            "{RUN}\n{}\n{ask}\n",
            listing(&[OLLAMA_SERVE, VLLM_HALF, OLLAMA_RUNNER])
        ));
        let reply = from_last(&out, "You asked to stop");
        assert!(reply.contains("pid 5121"), "{ask}: {reply}");
        assert!(reply.contains("reply yes or no"), "{ask}: {reply}");
        assert!(!out.contains("a hedge is not a yes"), "{ask}: {out}");
        assert!(!out.contains("kill 5121"), "{ask}: {out}");
    }
    // Then a yes gives the commands.
    let out = converse(&format!(
        "{RUN}\n{}\nstop ollama then\n\nyes\n",
        listing(&[OLLAMA_SERVE, VLLM_HALF, OLLAMA_RUNNER])
    ));
    let approved = from_last(&out, "Approved.");
    assert!(approved.contains("`kill 5121`"), "{approved}");
    assert!(
        approved.contains("`sudo systemctl stop ollama`"),
        "{approved}"
    );
}

#[test]
fn batch_and_context_named_in_a_statement_ask_no_order_question() {
    for turn in [
        "planning llama 3.1 8b qlora, batch 4, 2k ctx. before I launch, what's eating my memory?",
        "qwen 2.5 7b lora bs 2 seq 4096. or should I wait for the vllm job, what do you think?",
    ] {
        let out = converse(&format!("{turn}\n"));
        assert!(!out.contains("OOM ladder's order"), "{turn}: {out}");
    }
    for turn in [
        "llama 3.1 8b qlora batch 4 pack 4096. should I cut batch or seq len first?",
        "qwen 2.5 7b lora bs 8 ctx 4096. which goes first, batch or context?",
    ] {
        let out = converse(&format!("{turn}\n"));
        assert!(out.contains("OOM ladder's order"), "{turn}: {out}");
    }
}
