//! Short follow-ups in the owner's words: a what-if with its value first,
//! choosing the what-if by its number, keeping the run's method, a pair
//! length that is the sequence, and a verdict that counts the servers
//! pasted beside the run.

use crate::support::converse;

const RUN: &str = "LoRA on gemma 2 27b, bf16, batch size 2 and max_seq_length=2048";

#[test]
fn a_value_said_before_what_it_is_for_is_a_what_if_then_taken_by_its_number() {
    for (ask, take) in [
        (
            "and if i take 1024 for the sequence, is more safe?",
            "ok so i take the 1024 then",
        ),
        ("what about 4096 for context length?", "let's go with 4096"),
    ] {
        let out = converse(&format!("{RUN}\n\n{ask}\n\n{take}\n"));
        assert!(out.contains("What if pack 2048 →"), "{ask}: {out}");
        assert!(
            out.contains("Adopted: the what-if is now your run."),
            "{take}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{out}");
    }
    // A number the what-if does not show adopts nothing.
    let out = converse(&format!(
        "{RUN}\n\nand if i take 1024 for the sequence?\n\nok i take 512 then\n"
    ));
    assert!(!out.contains("Adopted: the what-if"), "{out}");
}

#[test]
fn keeping_the_runs_method_drops_the_what_if() {
    for keep in [
        "nah keep lora. thx",
        "no, stay with lora",
        "ok stick to LoRA",
    ] {
        let out = converse(&format!(
            "{RUN}\n\nwhat if full finetune instead?\n\n{keep}\n"
        ));
        // "no, …" is also the no to the what-if: dropped either way.
        assert!(
            out.contains("Kept LoRA") || out.contains("Dropped the what-if"),
            "{keep}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{keep}: {out}");
    }
}

#[test]
fn a_preference_runs_pair_length_is_its_sequence() {
    for pairs in [
        "batch 4, pairs up to 1500 tokens (prompt + longest answer)",
        "batch 4, chosen up to 1500 tokens and rejected up to 1200 tokens",
    ] {
        let out = converse(&format!("dpo on mistral 7b\n\nlora, bf16\n\n{pairs}\n"));
        assert!(out.contains("pack 1500"), "{pairs}: {out}");
        assert!(out.contains("Verdict"), "{pairs}: {out}");
        let last = &out[out.rfind("Noted: batch 4").unwrap()..];
        assert!(!last.contains("- the packing length"), "{pairs}: {last}");
    }
}

#[test]
fn the_verdict_counts_the_servers_pasted_beside_the_run() {
    let out = converse(
        "ollama ps on the spark:\nNAME            ID              SIZE     PROCESSOR    CONTEXT    UNTIL\ngpt-oss:120b    a951a23b46a1    66 GB    100% GPU     32768      4 minutes from now\nI want QLoRA on Llama 3.1 8B tonight, bf16 compute, batch 4, packing 4096, while ollama keeps gpt-oss loaded. ok?\n",
    );
    // 119.48 GB idle budget − 66.00 GB the model holds = 53.48 GB: the
    // headline and the sharing answer agree.
    assert!(out.contains("They do not fit together"), "{out}");
    assert!(out.contains("**Verdict: does not fit.**"), "{out}");
    assert!(out.contains("of the 53.48 GB budget"), "{out}");
    assert!(!out.contains("**Verdict: fits.**"), "{out}");
    // With a `free` paste the pool already counts the model.
    let out = converse(
        "ollama ps:\nNAME            ID              SIZE     PROCESSOR    CONTEXT    UNTIL\ngemma3:latest   a2af6cc3eb7f    6.6 GB   100% GPU     65536      2 minutes from now\nqlora llama 3.1 8b bf16 batch 1 packing 2048\n\n               total        used        free      shared  buff/cache   available\nMem:           119Gi        10Gi        90Gi        33Mi        19Gi       109Gi\nSwap:           15Gi       449Mi        15Gi\n",
    );
    let (before, after) = out.split_at(out.find("Noted: your `free` output").expect(&out));
    assert!(
        before.contains("less `gemma3:latest` in Ollama"),
        "{before}"
    );
    assert!(!after.contains("less `gemma3:latest`"), "{after}");
}

#[test]
fn short_questions_after_an_answer_are_answered() {
    let run = "qlora llama 3.1 70b, bf16 compute, batch 1, packing 2048";
    for ask in ["fits?", "so it fits?", "is it ok then?"] {
        let out = converse(&format!("{run}\n\n{ask}\n"));
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
        // The verdict again, or a judgement of it.
        assert!(
            out.matches("**Verdict: fits.**").count() == 2 || out.contains("It fits, so"),
            "{ask}: {out}"
        );
    }
}

const VLLM_PS: &str = "ben       41877  3.1  0.9 30562112 1208332 ?    Sl   08:02   4:11 /home/ben/venv/bin/python3 /home/ben/venv/bin/vllm serve Qwen/Qwen2.5-32B-Instruct-AWQ --gpu-memory-utilization 0.5 --max-model-len 16384 --port 8000";

#[test]
fn a_command_typed_above_its_output_is_not_the_output() {
    for command in [
        "ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep",
        "sudo ps aux | grep vllm",
    ] {
        let out = converse(&format!(
            "a tiny LoRA, Qwen2.5 1.5B, bf16, batch 4, packing 1024, next to vllm\n\n{command}\n{VLLM_PS}\n"
        ));
        assert!(
            out.contains("| 41877 | vLLM |  65.34 |"),
            "{command}: {out}"
        );
        assert!(!out.contains("I do not read the paste"), "{command}: {out}");
    }
}

#[test]
fn both_running_and_what_number_questions_are_answered() {
    let setup = format!(
        "a tiny LoRA, Qwen2.5 1.5B, bf16, batch 4, packing 1024, next to vllm\n\n{VLLM_PS}\n"
    );
    for ask in [
        "so they can both run? nothing to stop?",
        "can we both stay on the box if he lowers it? what number should he use",
    ] {
        let out = converse(&format!("{setup}\n{ask}\n"));
        let last = &out[out.rfind("Shared pool").unwrap_or(0)..];
        assert!(!out.contains("found no run setting"), "{ask}: {last}");
    }
}

#[test]
fn a_question_about_one_term_gets_its_worksheet_line() {
    let run = "qwen2.5 32b lora bf16 batch 4 packing 4096";
    for (ask, line) in [
        (
            "why is the loss logits part so big?",
            "loss logits = batch 4 × pack 4096 × vocab 152,064",
        ),
        (
            "what is this allocator reserve?",
            "allocator reserve (variable-length batches) = 1.3 × the loss path",
        ),
        (
            "how come the weights take 65 GB?",
            "weights = 32,763,417,600 params × 2 B (bf16)",
        ),
        ("why so much for activations", "activations = "),
    ] {
        let out = converse(&format!("{run}\n\n{ask}\n"));
        let last = &out[out.rfind("Planning math, not a guarantee.").expect(&out)..];
        assert!(last.contains(line), "{ask}: {out}");
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
    // A question naming no term, or two at once, gets no term line.
    let out = converse(&format!(
        "{run}\n\nare the logits or the activations bigger?\n"
    ));
    assert!(!out.contains("loss logits = batch"), "{out}");
}

#[test]
fn short_judgements_after_fillers_are_answered() {
    for ask in [
        "so its fine?",
        "hmm ok. sure it fits?",
        "thats bad?",
        "is problem?",
    ] {
        let out = converse(&format!("{RUN}\n\n{ask}\n"));
        assert!(
            out.contains("It fits, so nothing is wrong for memory"),
            "{ask}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}

#[test]
fn the_value_a_solve_finds_is_taken_by_use_that() {
    for (ask, take, change) in [
        (
            "whats the longest packing that fits?",
            "ok use that",
            "Changed: pack 2048 →",
        ),
        (
            "what's the largest batch that fits at packing 1024?",
            "go with that",
            "Changed: batch 2 →",
        ),
        (
            "longest packing that fits at batch 2?",
            "lets do that",
            "Changed: pack 2048 →",
        ),
    ] {
        let out = converse(&format!("{RUN}\n\n{ask}\n\n{take}\n"));
        assert!(
            out.contains("Say \"use that\" to plan with it."),
            "{ask}: {out}"
        );
        assert!(out.contains(change), "{take}: {out}");
        assert!(!out.contains("Changed: .\n"), "{take}: {out}");
    }
}

#[test]
fn a_solve_that_finds_the_runs_own_value_says_so() {
    let out = converse(&format!(
        "{RUN}\n\nwhat's the largest batch that fits?\n\nok use that\n"
    ));
    assert!(out.contains("Largest batch that fits: **2**"), "{out}");
    assert!(out.contains("That is your run's batch already."), "{out}");
    assert!(!out.contains("Changed: ."), "{out}");
}

/// "can both run at once?" after a listing with one vLLM is the sharing
/// arithmetic at its listed fraction (the default when it has no flag,
/// named as such), not the pool table again.
#[test]
fn can_both_run_after_a_listing_is_the_fraction_arithmetic() {
    let listing = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nalice     415002 12.0 38.2 98765432 48234567 ?        Sl   09:12  41:07 /home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000";
    for ask in ["can both run at once?", "so can they both run together?"] {
        let out = crate::support::converse(&format!(
            "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\n{listing}\n\n{ask}\n"
        ));
        let last = crate::support::from_last(&out, "vLLM beside your run");
        assert!(
            last.contains("together: 117.60 GB + 60.17 GB"),
            "{ask}: {last}"
        );
        assert!(
            last.contains("no `--gpu-memory-utilization` on pid 415002"),
            "{ask}: {last}"
        );
        assert!(!last.contains("you said"), "{ask}: {last}");
        assert_eq!(out.matches("## Shared pool").count(), 1, "{ask}: {out}");
    }
}

#[test]
fn a_trainer_key_said_in_a_what_if_and_pair_lengths_said_loosely_are_read() {
    let out = converse("qlora, params 8b, batch 1, packing 1024\n\nwhat if load_in_4bit=False?\n");
    assert!(out.contains("What if method QLoRA → LoRA"), "{out}");
    assert!(out.contains("an 8B model"), "{out}");
    let out = converse(
        "dpo lora on llama 3.1 8b, batch 2, packing 4096\n\nactually my pairs are only up to 700 tokens, prompt included\n",
    );
    assert!(out.contains("chosen 700, rejected 700"), "{out}");
    assert!(!out.contains("found no run setting"), "{out}");
}

#[test]
fn a_what_if_said_together_with_the_open_one_adds_to_it_and_both_are_adopted() {
    for (second, adopt) in [
        (
            "and micro_batch_size: 2 together with it?",
            "Good, go ahead with both.",
        ),
        ("what if batch 2 as well?", "ok, apply them"),
        ("and batch 2 too?", "go with both"),
    ] {
        let out = converse(&format!(
            "qlora llama 3.1 70b, batch 1, packing 512\n\nwhat if packing 2048?\n\n{second}\n\n{adopt}\n"
        ));
        assert!(
            out.contains("What if batch 1 → 2, pack 512 → 2048"),
            "{second}: {out}"
        );
        assert!(
            out.contains("Changed: batch 1 → 2, pack 512 → 2048."),
            "{adopt}: {out}"
        );
    }
    // Without a word that joins them, the second what-if replaces the first.
    let out = converse(
        "qlora llama 3.1 70b, batch 1, packing 512\n\nwhat if packing 2048?\n\nwhat if batch 2?\n",
    );
    assert!(out.contains("What if batch 1 → 2 —"), "{out}");
}

#[test]
fn which_one_with_a_what_if_open_compares_them_by_memory_and_changes_nothing() {
    for ask in ["ok so which one should I use?", "what would you recommend?"] {
        let out = converse(&format!(
            "lora qwen2.5 7b, batch 2, packing 2048\n\nwhat if full fine-tune?\n\n{ask}\n"
        ));
        assert!(
            out.contains("By memory alone: your run, Qwen2.5 7B LoRA"),
            "{ask}: {out}"
        );
        assert!(
            out.contains("The one with more room is your run as it is."),
            "{ask}: {out}"
        );
        assert!(!out.contains("Adopted"), "{ask}: {out}");
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}
