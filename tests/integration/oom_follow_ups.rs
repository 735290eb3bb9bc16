//! Follow-ups on an OOM and on a thermal request: "is that bad?" judged
//! against the plan, whose process the kernel killed, a resume read as a
//! load, a decline said with "rather not", and a repeated thermal question
//! answered in one line.

use crate::support::converse;

const KERNEL: &str = "qlora llama 3.3 70b, batch 1, packing 2048. my training is killed in the night, dmesg:\n[Sun Mar 30 08:24:00 2025] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/init.scope,task=python,pid=7899,uid=0\n[Sun Mar 30 08:24:00 2025] Out of memory: Killed process 7899 (python) total-vm:26184840kB, anon-rss:15370088kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:38964kB oom_score_adj:0";

const NVRM: &str = "QLoRA on Phi-3 mini (3.8B), batch 8, packing 4096. when I resumed from the checkpoint the box froze. journalctl -k has:\nNVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY] (0x00000051) returned from _memdescAllocInternal(pMemDesc) @ mem_desc.c:1359";

#[test]
fn is_that_bad_after_an_oom_is_judged_against_the_plan_not_the_ladder_again() {
    for ask in [
        "is that bad?",
        "so?",
        "what does that mean?",
        "should I worry?",
    ] {
        let out = converse(&format!("{NVRM}\n\n{ask}\n"));
        assert!(out.contains("It is what stopped the run"), "{ask}: {out}");
        assert!(
            out.contains("As planned the run peaks at 51.26 GB"),
            "{ask}: {out}"
        );
        // The ladder is shown once, with the report, not again.
        assert_eq!(
            out.matches("OOM ladder for the OOM").count(),
            1,
            "{ask}: {out}"
        );
    }
}

#[test]
fn a_resume_from_a_checkpoint_is_a_load_phase() {
    for words in [
        "when I resumed from the checkpoint the box froze",
        "it died on resume",
        "resuming from the last checkpoint killed it",
    ] {
        let out = converse(&format!(
            "QLoRA on Phi-3 mini (3.8B), batch 8, packing 4096. {words}. dmesg:\nNVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\n"
        ));
        assert!(!out.contains("Was it mid-load"), "{words}: {out}");
        assert!(out.contains("(mid-load)"), "{words}: {out}");
    }
    // A step named with the resume is the step.
    let out = converse(
        "QLoRA on Phi-3 mini (3.8B), batch 8, packing 4096. resumed from checkpoint and it died at step 4100. dmesg:\nNVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\n",
    );
    assert!(out.contains("(mid-step)"), "{out}");
}

#[test]
fn whose_process_was_killed_is_read_from_the_kernel_line() {
    for ask in [
        "So the process killed is my trainer, not something else?",
        "was pid 7899 my training run?",
        "did it kill my trainer?",
    ] {
        let out = converse(&format!("{KERNEL}\n\n{ask}\n"));
        let reply = out.rsplit("(yes/no)").next().unwrap_or(&out);
        assert!(
            reply.contains("The kernel killed `python` (pid 7899), holding 15.74 GB"),
            "{ask}: {out}"
        );
        // A question is not a new report: the ladder is not reopened.
        assert_eq!(out.matches("OOM noted").count(), 1, "{ask}: {out}");
    }
}

#[test]
fn a_decline_said_as_rather_not_declines_the_flush() {
    for no in [
        "I'd rather not flush, the box is shared. what next?",
        "rather not, other jobs use that cache",
        "let's not do that, what else?",
        "I won't flush on a shared box. next step?",
    ] {
        let out = converse(&format!("{NVRM}\n\n{no}\n"));
        assert!(out.contains("Noted: you declined step 1"), "{no}: {out}");
        assert!(!out.contains("drop_caches"), "{no}: {out}");
    }
}

#[test]
fn a_thermal_question_asked_again_without_samples_gets_one_line() {
    let out = converse(
        "spark got slow mid-run, is it throttling?\n\nroom is hot. thermal or not? yes or no\n",
    );
    assert_eq!(
        out.matches("To tell whether a slowdown is thermal").count(),
        1,
        "{out}"
    );
    assert!(
        out.contains("Still no temperature or power samples"),
        "{out}"
    );
    let out = converse("spark got slow mid-run, is it throttling?\n\nso?\n");
    assert!(
        out.contains("So: nothing yet says whether the slowdown is thermal"),
        "{out}"
    );
}

#[test]
fn a_question_comparing_with_another_server_is_about_its_subject() {
    for ask in [
        "does ollama have something like vllm's gpu-memory-utilization so I can cap it?",
        "can I limit ollama like vllm's fraction?",
    ] {
        let out = converse(&format!("{ask}\n"));
        assert!(
            out.contains("Ollama has no memory-fraction cap"),
            "{ask}: {out}"
        );
        assert!(
            !out.contains("is the fraction of GPU memory one vLLM instance"),
            "{ask}: {out}"
        );
    }
}

const OOM_AT_8192: &str = "qlora on qwen2.5 14b, batch 1, cutoff_len 8192. it OOMs at step 128:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";

#[test]
fn the_longest_length_after_an_oom_at_that_length_is_not_a_longer_one() {
    for ask in [
        "just tell me the longest cutoff that fits",
        "what's the longest packing that fits?",
        "longest seq len that fits?",
    ] {
        let out = converse(&format!("{OOM_AT_8192}\n\n{ask}\n"));
        assert!(
            out.contains("Your run died for memory at packing 8192"),
            "{ask}: {out}"
        );
        assert!(
            !out.contains("Longest packing length that fits"),
            "{ask}: {out}"
        );
    }
    // Without an OOM the same question is solved.
    let out =
        converse("qlora on qwen2.5 14b, batch 1, cutoff_len 8192\n\nlongest cutoff that fits?\n");
    assert!(out.contains("Longest packing length that fits"), "{out}");
}

#[test]
fn use_that_after_a_what_if_takes_the_what_if_while_a_step_waits() {
    for take in ["ok use that", "go with that", "ok, do that"] {
        let out = converse(&format!(
            "{OOM_AT_8192}\n\nwhat if batch 1 and packing 4096?\n\n{take}\n"
        ));
        assert!(
            out.contains("Adopted: the what-if is now your run."),
            "{take}: {out}"
        );
        assert!(!out.contains("drop_caches`"), "{take}: {out}");
        assert!(
            out.contains("Still waiting for your yes or no on: step 1"),
            "{take}: {out}"
        );
    }
}

#[test]
fn a_precision_question_is_answered_while_a_step_waits_and_sets_nothing() {
    for ask in [
        "would fp16 help?",
        "bf16 or fp16?",
        "should I use float16 instead?",
    ] {
        let out = converse(&format!("{OOM_AT_8192}\n\n{ask}\n"));
        assert!(
            out.contains("fp16 and bf16 both store 2 bytes per value"),
            "{ask}: {out}"
        );
        assert!(!out.contains("dtype bf16 → fp16"), "{ask}: {out}");
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}
