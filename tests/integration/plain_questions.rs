//! Plain questions in the middle of a run's conversation (set 14's class
//! "plain questions unrecognised") get a sourced answer and change nothing:
//! what an optimizer saves, whether a LoRA rank is better, what power is
//! normal, what a vLLM fraction is in GB.

use crate::support::converse;

#[test]
fn plain_questions_after_a_run_are_answered_and_change_nothing() {
    let run = "lora llama 3.1 8b bf16 batch 2 packing 2048";
    for (question, answer) in [
        (
            "what means paged_adamw? it is using less memory?",
            "2 bytes per parameter",
        ),
        (
            "does adamw 8bit save a lot here?",
            "saves 6 bytes for every trainable parameter",
        ),
        (
            "thank you. and lora_r 16 is more better?",
            "does not judge which LoRA rank trains better",
        ),
        ("would a bigger rank be better?", "41,943,040 parameters"),
        (
            "what power is normal for this box when training?",
            "platform power ceiling",
        ),
        ("how many watts is normal under load", "around 100 W"),
        (
            "vllm at 0.3 is how many GB exactly?",
            "= 36.51 GiB = 39.20 GB",
        ),
        (
            "how many gb would gpu_memory_utilization 0.5 be",
            "0.5 × 121.69 GiB",
        ),
    ] {
        let out = converse(&format!("{run}\n\n{question}\n"));
        assert!(out.contains(answer), "{question}: {out}");
        assert!(!out.contains("found no run setting"), "{question}: {out}");
        assert!(!out.contains("Changed:"), "{question}: {out}");
        assert_eq!(out.matches("Noted:").count(), 1, "{question}: {out}");
    }
}

/// Set 15's plain questions that dead-ended (class C1): each is answered
/// with its source, in the owner's own wording.
#[test]
fn set_15_plain_questions_are_answered() {
    let run = "lora llama 3.1 8b bf16 batch 2 packing 2048";
    for (question, answer) in [
        (
            "Last one: why does it only ever pull ~100 W? The spec sheet says 240 W. Is my config wrong?",
            "platform power ceiling",
        ),
        (
            "What is mean the \"Max memory: 121.628 GB\" then? It is not my free memory?",
            "total_memory / 1024 / 1024 / 1024",
        ),
        (
            "the banner says max memory = 121.628 GB, is that my budget?",
            "GiB, though labelled GB",
        ),
        (
            "How do I know it actually freed the memory?",
            "`available` should have grown",
        ),
        (
            "how can I check the memory is back after stopping it",
            "`available` should have grown",
        ),
    ] {
        let out = converse(&format!("{run}\n\n{question}\n"));
        assert!(out.contains(answer), "{question}: {out}");
        assert!(!out.contains("found no run setting"), "{question}: {out}");
        assert!(!out.contains("Changed:"), "{question}: {out}");
    }
}

/// "What if we restart vLLM at 0.4?" after a plan turn, with the server's
/// log earlier in the conversation, is the sharing answer at 0.4 (set 15,
/// 07 T3), not a dead end.
#[test]
fn a_server_named_after_a_plan_turn_is_still_the_servers_question() {
    let log = "INFO 03-29 20:10:05 [api_server.py:1043] non-default args: {'model': 'Qwen/Qwen3-32B', 'gpu_memory_utilization': 0.87}\nINFO 03-29 20:11:40 [gpu_model_runner.py:1329] Model loading took 34.22 GiB and 85.3 seconds";
    for ask in [
        "What if we restart vLLM at 0.4?",
        "and vllm at 0.4 instead?",
    ] {
        let out = converse(&format!(
            "{log}\n\nLoRA Qwen2.5 7B, bf16, batch 2, max_seq_length=4096. Can both run?\n\n{ask}\n"
        ));
        assert!(out.contains("0.4 × 121.69 GiB"), "{ask}: {out}");
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}

/// After a thermal reply, "what command?" is the sampler's command, and
/// "anything else I should capture?" what to sample (set 15, 06 T3, 05 T4).
#[test]
fn thermal_follow_ups_get_the_sampler() {
    let slow = "my run got slow mid-run, is it thermal throttling?";
    for ask in [
        "fine. what command",
        "which command do I run?",
        "ok I'll run the sampler tonight. anything else I should capture so you can tell me tomorrow?",
        "ok how do i run that sampler thing",
        "where do I start the sampler from?",
        "launch the sampler how exactly",
    ] {
        let out = converse(&format!("{slow}\n\n{ask}\n"));
        let reply = crate::support::from_last(&out, "Sample every 30 to 60 seconds");
        assert!(
            reply.contains("bash assets/thermal-sample.sh 30 thermal.log"),
            "{ask}: {reply}"
        );
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
    // Without a thermal topic, "what command" is not taken as the sampler.
    let out = converse("lora llama 3.1 8b bf16 batch 2 packing 2048\n\nwhat command\n");
    assert!(!out.contains("Sample every 30 to 60 seconds"), "{out}");
}

/// "should I flush it then?" when the run fits only once the page cache is
/// returned offers the flush for a yes, and the yes gives the command and
/// asks for a fresh `free -g` before the launch (set 15, 01 T5–T6); with
/// room free right now there is nothing to offer.
#[test]
fn a_flush_asked_before_a_launch_that_needs_it_waits_for_a_yes() {
    let run = "qlora llama 3.1 8b, batch 2, packing 4096";
    let tight = "               total        used        free      shared  buff/cache   available\nMem:             119          12           2           0         111         107\nSwap:             15           0          15";
    for ask in ["ok should I flush it then?", "do I need to flush first?"] {
        let out = converse(&format!("{run}\n\n{tight}\n\n{ask}\n\nyes\n"));
        assert!(
            out.contains("shall I give you the command? (yes/no)"),
            "{ask}: {out}"
        );
        let yes = crate::support::from_last(&out, "Approved.");
        assert!(
            yes.contains("sync; echo 3 > /proc/sys/vm/drop_caches"),
            "{yes}"
        );
        assert!(
            yes.contains("paste a fresh `free -g` before you launch"),
            "{yes}"
        );
        assert!(!out.contains("Nothing is waiting for a yes or no"), "{out}");
    }
    let roomy = "               total        used        free      shared  buff/cache   available\nMem:             119          12          90           0          17         107\nSwap:             15           0          15";
    let out = converse(&format!("{run}\n\n{roomy}\n\nok should I flush it then?\n"));
    assert!(!out.contains("shall I give you the command?"), "{out}");
}

/// "why is your number not 40 GB?" sets the plan's peak beside the figure
/// read elsewhere, with the seed's anchor, and leaves the run as it was: a
/// size said of the run's own model ("70B") is not another model (set 19,
/// 01 T4).
#[test]
fn a_figure_read_elsewhere_is_set_beside_the_plan() {
    let run = "qlora llama 3.1 70b, batch 1, packing 4096";
    for ask in [
        "Why your number is not 40 GB? In the NVIDIA forum they say 70B QLoRA is about 40 GB.",
        "how come it's not 40gb like everyone says for 70b qlora",
        "people on reddit report 40 GB for 70B QLoRA, why is yours higher?",
    ] {
        let out = converse(&format!("{run}\n\n{ask}\n"));
        let answer = crate::support::from_last(&out, "is the whole peak of your run as planned");
        assert!(answer.contains("Seed anchor"), "{ask}: {answer}");
        assert!(!out.contains("70B parameters"), "{ask}: {out}");
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}
