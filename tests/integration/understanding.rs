//! Turns as owners type them: words and a paste in one message, corrections,
//! alternatives, a server that failed, steps already taken, approvals with
//! an extra word. Each class with more than one wording.

use crate::support::Headroom;

fn converse(text: &str) -> String {
    let data = tempfile::tempdir().unwrap();
    Headroom::new(data.path()).stdin(text).run().ok().stdout
}

const TRACEBACK: &str = "Traceback (most recent call last):\n  File \"/home/a/train.py\", line 88, in <module>\n    trainer.train()\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.10 GiB is free.";

#[test]
fn words_above_a_traceback_are_read_with_it() {
    for lead in [
        "qlora on llama 3.1 70b, batch 2, packing 4096, bf16. it died at step 40, here's the error:",
        "It OOMs mid-step with lora on qwen2.5 7b, bs 4, 8192 seq len, bf16 — log:",
    ] {
        let out = converse(&format!("{lead}\n{TRACEBACK}\n"));
        assert!(out.contains("OOM noted"), "{out}");
        assert!(out.contains("Noted: model"), "{out}");
        // The model was in the words: it is not asked for again after them.
        let after = &out[out.find("OOM noted").unwrap()..];
        assert!(!after.contains("- the model:"), "{after}");
    }
}

#[test]
fn a_question_above_a_process_listing_is_answered_by_the_listing() {
    let ps = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nollama      1874  0.3  0.4 6213376 498812 ?      Ssl  Nov21  19:44 /usr/local/bin/ollama serve\nkofi      903311 99.8 24.1 71022648 30241716 pts/4 Rl+  09:15  61:40 /home/kofi/.venv/bin/python3 train.py --config a.yaml";
    for lead in ["what's using my memory?", "why is the box full? here's ps:"] {
        let out = converse(&format!(
            "lora on llama 3.1 8b, bf16, batch 2, packing 2048\n\n{lead}\n{ps}\n"
        ));
        assert!(out.contains("## Shared pool"), "{out}");
        assert!(
            !out.contains("knowledge/questions.md row"),
            "a stock explainer: {out}"
        );
        // The trainer may be the owner's run: never proposed for stopping.
        assert!(!out.contains("trainer (pid 903311)"), "{out}");
        assert!(out.contains("a trainer: yours?"), "{out}");
    }
}

#[test]
fn a_server_that_failed_is_not_the_training_ladder() {
    for words in [
        "lora on llama 3.2 3b, bf16, batch 8, packing 1024\n\nOllama keeps crashing when my training runs",
        "lora on llama 3.2 3b, bf16, batch 8, packing 1024\n\nvllm fails with out of memory as soon as the trainer starts",
    ] {
        let out = converse(&format!("{words}\n"));
        assert!(out.contains("not your training run"), "{out}");
        assert!(!out.contains("OOM noted"), "{out}");
        assert!(!out.contains("Step 1 of the OOM ladder"), "{out}");
    }
}

#[test]
fn the_owner_corrects_themself_in_the_dialogue() {
    for (text, want) in [
        (
            "qwen2.5 7b lora bf16, batch 8, no wait, 4, packing 2048",
            "batch 4",
        ),
        (
            "qwen2.5 7b lora bf16 batch 2 pack 4096 — sorry, 2048",
            "pack 2048",
        ),
        (
            "qwen2.5 7b, lora, no wait, qlora, bf16, batch 1, packing 1024",
            "method QLoRA",
        ),
    ] {
        let out = converse(&format!("{text}\n"));
        assert!(
            out.contains("Noted: ") && out.contains(want),
            "{text}: {out}"
        );
    }
}

#[test]
fn a_yes_with_the_action_repeated_is_a_yes() {
    for yes in ["yes go", "yeah, go ahead", "ok yes, give me the command"] {
        let out = converse(&format!(
            "qlora on llama 3.1 70b, bf16, batch 1, packing 2048. it OOMs mid-step\n\nwhat do I do\n\n{yes}\n"
        ));
        assert!(out.contains("drop_caches"), "{yes}: {out}");
    }
}

#[test]
fn two_models_as_alternatives_are_asked_about_and_picked_by_family() {
    let out = converse(
        "Qwen2.5 14B or Llama 3.1 8B, which is better? lora, bf16, batch 2, packing 4096\n\nwhich one fits better in memory?\n\nok the qwen\n",
    );
    assert!(out.contains("as alternatives"), "{out}");
    assert!(out.contains("does not judge model quality"), "{out}");
    assert!(out.contains("- Qwen2.5 14B: peak"), "{out}");
    assert!(out.contains("- Llama 3.1 8B: peak"), "{out}");
    assert!(out.contains("Noted: model Qwen2.5 14B"), "{out}");
}

#[test]
fn a_step_taken_before_the_report_is_never_proposed() {
    for words in [
        "lora on qwen2.5 7b, bf16, batch 8, packing 8192. OOM at step 212, mid-step. already dropped caches before launching.",
        "qwen2.5 7b lora bf16 batch 8 packing 8192 OOMs mid-step; I flushed the page cache first",
    ] {
        let out = converse(&format!("{words}\n"));
        assert!(out.contains("you did it yourself"), "{out}");
        assert!(!out.contains("Step 1 of the OOM ladder"), "{out}");
    }
}

#[test]
fn a_result_with_what_now_moves_the_ladder() {
    let out = converse(
        "lora on qwen2.5 7b, bf16, batch 8, packing 8192. OOM mid-step, I already flushed caches\n\nyes\n\nstill OOMs at step 300. what now?\n",
    );
    assert!(out.contains("shorter packing: done, still OOM"), "{out}");
}

#[test]
fn so_after_a_memory_paste_explains_the_budget() {
    let free = "               total        used        free      shared  buff/cache   available\nMem:             119          52           9           0          59          66\nSwap:              0           0           0";
    for follow in ["so?", "what does that mean for my run?", "is that bad?"] {
        let out = converse(&format!("{free}\n\n{follow}\n"));
        assert!(out.contains("Your box can give a run"), "{follow}: {out}");
        assert!(!out.contains("found no run setting"), "{follow}: {out}");
    }
}
