//! While a yes or no waits, every other turn still gets its answer: a
//! question after a filler ("hm what do you recommend"), a go/no-go ("good
//! enough to start the training now?"), a no in a sentence ("dont stop
//! anything yet, …"), and an unload or keep that names one listed model.

use crate::support::converse;

const PS: &str = "mistral 7b qlora tonight, batch 8, packing 4096, bf16. this is whats on the box:
ollama      1877  0.2  0.6 41220132 762144 ?      Ssl  Nov10  14:02 /usr/local/bin/ollama serve
lab        48211  2.7  2.1 55200112 2611520 pts/1 Sl   10:02   3:12 python3 -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-Instruct-v0.3 --port 8001 --max-model-len 8192
lab        48390 31.0  1.0 49811232 1288004 pts/1 Sl   10:03  41:55 VLLM::EngineCore";

const OLLAMA: &str = "i want to lora llama 3.1 8b overnight, batch 4, 2048, bf16. ollama ps:
NAME            ID              SIZE      PROCESSOR    CONTEXT    UNTIL
gpt-oss:120b    735371f916a9    65 GB     100% GPU     8192       Forever
qwen3:8b        500a1f067a9f    6.3 GB    100% GPU     4096       2 minutes from now";

fn after(out: &str, marker: &str) -> String {
    crate::support::from_last(out, marker)
}

#[test]
fn a_question_after_a_filler_is_answered_while_a_stop_waits() {
    for ask in [
        "hm what do you recommend",
        "uh, what should i do now",
        "alright so what do you suggest?",
    ] {
        let out = converse(&format!("{PS}\n\n{ask}\n"));
        assert!(out.contains("stop Ollama server (pid 1877)"), "{out}");
        assert!(!out.contains("Nothing was done"), "{ask}: {out}");
    }
}

#[test]
fn a_no_in_a_sentence_is_recorded() {
    for no in [
        "dont stop anything yet, i need to ask the team first",
        "don't kill them, people use both",
        "please don't stop anything",
    ] {
        let out = converse(&format!(
            "{PS}\n\n{no}\n\nwhat if batch 4 and packing 2048 instead?\n"
        ));
        assert!(out.contains("Noted: you declined to stop"), "{no}: {out}");
        let last = after(&out, "What if");
        assert!(
            !last.contains("Still waiting for your yes or no"),
            "{no}: {last}"
        );
    }
}

#[test]
fn a_go_or_no_go_is_answered_in_the_pool_the_servers_leave() {
    // vLLM pasted at a 0.3 fraction and a run that does not fit beside it.
    let log = "(EngineCore_DP0 pid=91022) INFO 01-13 18:02:41 [gpu_worker.py:298] Free memory on device (110.34/121.69 GiB) on startup. Desired GPU memory utilization is (0.3, 36.51 GiB). Actual usage is 15.02 GiB for consumed memory (weights + non-torch), 1.23 GiB for peak activation, 0.48 GiB for non-torch memory, and 0.81 GiB for CUDAGraph memory.";
    for ask in [
        "good enough to start the training now?",
        "cool, starting it",
        "ok launching the run now",
    ] {
        let out = converse(&format!(
            "qwen2.5 14b lora bf16, batch 4, packing 4096\n\nthe team vllm restarted with 0.3, log:\n{log}\n\n{ask}\n"
        ));
        let last = after(&out, "\n\n");
        assert!(
            last.contains("No: ") && last.contains("s peak"),
            "{ask}: {out}"
        );
        assert!(last.contains("so it would OOM"), "{ask}: {out}");
    }
}

#[test]
fn a_what_if_beside_ollama_is_judged_against_what_ollama_leaves() {
    let out = converse(&format!("{OLLAMA}\n\nwhat if batch 2?\n"));
    let what_if = after(&out, "What if batch 4 → 2");
    assert!(
        what_if.contains("less `gpt-oss:120b` in Ollama"),
        "{what_if}"
    );
    assert!(
        !what_if.contains("against the 119.48 GB budget"),
        "{what_if}"
    );
}

#[test]
fn an_unload_or_a_keep_that_names_one_listed_model() {
    // A keep narrows the unload that waits to the other model.
    let out = converse(&format!(
        "{OLLAMA}\n\nno, keep gpt-oss loaded, people use it at night\n"
    ));
    assert!(out.contains("Only qwen3:8b then"), "{out}");
    // Then a yes naming it, with the keep repeated, is the yes.
    let out = converse(&format!(
        "{OLLAMA}\n\nno, keep gpt-oss loaded\n\nyes unload qwen3:8b, but keep gpt-oss\n"
    ));
    assert!(out.contains("`ollama stop qwen3:8b`"), "{out}");
    assert!(!out.contains("`ollama stop gpt-oss:120b`"), "{out}");
    assert!(!out.contains("→ Qwen3 8B"), "{out}");
    // With nothing waiting, an unload asked by the model's name is the
    // server's model, never the run's.
    let out = converse(&format!(
        "{OLLAMA}\n\nno\n\nunload qwen3 please, keep gpt-oss\n"
    ));
    assert!(out.contains("`ollama stop qwen3:8b`"), "{out}");
    assert!(!out.contains("→ Qwen3 8B"), "{out}");
}

#[test]
fn a_negated_unload_keeps_the_model_it_names() {
    // "can't unload X" is a keep of X, never an unload of it.
    for words in [
        "no, can't unload gpt-oss, people use it all night. what else?",
        "we cannot unload gpt-oss",
        "don't touch gpt-oss",
        "please never unload gpt-oss",
    ] {
        let out = converse(&format!("{OLLAMA}\n\n{words}\n"));
        let last = after(&out, "Only ");
        assert!(last.starts_with("Only qwen3:8b then"), "{words}: {out}");
        assert!(!out.contains("Only gpt-oss:120b then"), "{words}: {out}");
    }
}

#[test]
fn an_adopt_phrase_is_no_yes_to_a_stop_or_an_unload() {
    // A ladder step may be answered "go with that"; running work is not.
    for words in ["ok use that", "go with that", "ok, use it"] {
        let out = converse(&format!("{OLLAMA}\n\n{words}\n"));
        assert!(!out.contains("`ollama stop"), "{words}: {out}");
        assert!(out.contains("no what-if on the table"), "{words}: {out}");
        let out = converse(&format!("{PS}\n\n{words}\n"));
        assert!(!out.contains("`kill "), "{words}: {out}");
    }
}

#[test]
fn a_bare_length_beside_the_batch_is_the_packing() {
    for (run, pack) in [
        ("lora llama 3.1 8b, batch 4, 2048, bf16", "pack 2048"),
        ("qlora qwen2.5 7b bf16, bs 2, 4k", "pack 4096"),
        (
            "full fine-tune of llama 3.2 1b in bf16; batch 8; 1024",
            "pack 1024",
        ),
    ] {
        let out = converse(&format!("{run}\n"));
        assert!(out.contains(pack), "{run}: {out}");
        assert!(out.contains("Verdict:"), "{run}: {out}");
    }
    // Two bare numbers, or none beside a batch, are not a length.
    let out = converse("lora llama 3.1 8b, batch 4, 2048, 4096, bf16\n");
    assert!(!out.contains("Verdict:"), "{out}");
}

#[test]
fn a_model_id_with_a_point_release_is_planned_as_its_catalog_entry_and_said_so() {
    let yaml = "### model\nmodel_name_or_path: google/gemma-1.1-7b-it\n### method\nstage: sft\nfinetuning_type: lora\ncutoff_len: 1024\nper_device_train_batch_size: 1\nbf16: true\n";
    let out = converse(&format!("{yaml}\n"));
    assert!(out.contains("model Gemma 7B"), "{out}");
    assert!(out.contains("planned as Gemma 7B"), "{out}");
    let out = converse("lora on gemma-1.1-7b-it, bf16, batch 2, packing 2048\n");
    assert!(out.contains("planned as Gemma 7B"), "{out}");
    // A config's id the catalog cannot place is said, never dropped.
    let out = converse(
        "model_name_or_path: tiiuae/Falcon-H1-34B-Instruct\nstage: sft\nfinetuning_type: lora\ncutoff_len: 1024\nper_device_train_batch_size: 1\nbf16: true\n",
    );
    assert!(out.contains("is not in my model catalog"), "{out}");
}

#[test]
fn a_setting_that_names_a_topic_gets_one_line_not_the_explainer() {
    let out = converse(
        "dpo on llama 3.1 8b lora\n\nbf16. per_device_train_batch_size 2, gradient_accumulation_steps 8, packing 2048\n",
    );
    assert!(
        out.contains("`gradient_accumulation_steps` changes no memory"),
        "{out}"
    );
    assert!(
        !out.contains("Gradient accumulation costs no extra activation memory"),
        "{out}"
    );
    // A report that names the flush is not a question about it.
    let out = converse(
        "qwen2.5 14b qlora, bf16, batch 2, packing 4096\n\nOOM at step 40\n\nyes\n\ndid the drop caches as root and relaunched. still dies\n",
    );
    assert!(!out.contains("first writes dirty data to disk"), "{out}");
    // Asked, it is answered in full.
    let out = converse("why does gradient accumulation not count?\n");
    assert!(
        out.contains("Gradient accumulation costs no extra activation memory"),
        "{out}"
    );
}

/// "I won't suggest it again unless you ask": asking by name ("stop vllm")
/// proposes the declined stop again, tied to now, and it still waits for a
/// yes; a question about stopping stays a question.
#[test]
fn a_declined_stop_asked_for_by_name_is_proposed_again_and_waits_for_a_yes() {
    let listing = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nalice     415002 12.0 38.2 98765432 48234567 ?        Sl   09:12  41:07 /home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000";
    let run = "LoRA on Qwen2.5 7B, bf16, batch 4, packing 4096";
    for ask in [
        "stop vllm",
        "ok, kill it after all",
        "changed my mind, stop the server",
    ] {
        let out = crate::support::converse(&format!("{run}\n\n{listing}\n\nno\n\n{ask}\n"));
        let last = crate::support::from_last(&out, "You asked to");
        assert!(last.contains("pid 415002"), "{ask}: {last}");
        assert!(!last.contains("kill 415002"), "{ask}: {last}");
        assert!(!last.contains("Still waiting"), "{ask}: {last}");
        let out = crate::support::converse(&format!("{run}\n\n{listing}\n\nno\n\n{ask}\n\nyes\n"));
        assert!(out.contains("`kill 415002`"), "{ask}: {out}");
    }
    let out = crate::support::converse(&format!(
        "{run}\n\n{listing}\n\nno\n\nshould I stop vllm?\n\nyes\n"
    ));
    assert!(!out.contains("`kill 415002`"), "{out}");
}

/// A server kept by the owner's no and restarted under a new pid is the
/// same server: its stop is not proposed again, and a bare yes kills
/// nothing (fault set 13, s27).
#[test]
fn a_declined_server_restarted_under_a_new_pid_is_not_proposed_again() {
    let row = |pid: u64| {
        format!(
            "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nalice     {pid} 12.0 38.2 98765432 48234567 ?        Sl   09:12  41:07 /home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000"
        )
    };
    let run = "full fine-tune llama 3.1 8b, bf16, batch 4, packing 4096";
    let out = crate::support::converse(&format!(
        "{run}\n\n{}\n\nno\n\n{}\n\nyes\n",
        row(415002),
        row(416600)
    ));
    assert!(
        !out.contains("how to stop vLLM server (pid 416600)"),
        "{out}"
    );
    assert!(!out.contains("kill 416600"), "{out}");
}

/// A look-alike of yes (a Cyrillic е, a Greek ο) is no answer: nothing is
/// approved, and the step still waits (fault set 13, s23).
#[test]
fn a_look_alike_yes_approves_nothing() {
    let listing = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nalice     415002 12.0 38.2 98765432 48234567 ?        Sl   09:12  41:07 /home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000";
    let run = "full fine-tune llama 3.1 8b, bf16, batch 4, packing 4096";
    for look_alike in ["y\u{435}s", "\u{443}es", "ye\u{455}", "\u{43e}k"] {
        let out = crate::support::converse(&format!("{run}\n\n{listing}\n\n{look_alike}\n"));
        assert!(!out.contains("kill 415002"), "{look_alike}: {out}");
        assert!(!out.contains("Approved"), "{look_alike}: {out}");
    }
}
