//! An OOM the ladder cannot reach: 16-bit weights that alone exceed the
//! budget get no flush, packing or batch step, but the change that can
//! help (a 4-bit base) with its figure; "can I just drop caches?" is told
//! why not; a set-up progress bar is no training log; more evidence of the
//! same OOM does not reprint the ladder; and a mid-step OOM whose plan is
//! bound by loading still gets its smaller-batch step.

use crate::support::converse;

const KERNEL: &str = "dmesg says\n[ 8121.553012] Out of memory: Killed process 5120 (python) total-vm:152081744kB, anon-rss:118733212kB, file-rss:61440kB, shmem-rss:0kB, UID:1000 pgtables:236612kB oom_score_adj:0";

#[test]
fn weights_over_the_budget_get_the_change_that_can_help_not_the_flush() {
    for run in [
        "lora on llama 3.3 70b instruct in bf16, batch 1, packing 1024. it gets killed while loading shards:\nLoading checkpoint shards:  63%|██████▎   | 19/30 [02:41<01:33,  8.50s/it]Killed",
        "LoRA Qwen2.5 72B bf16 batch 1 packing 2048, OOM while loading the checkpoint",
        "full fine-tune of llama 3.1 70b, bf16, batch 1, packing 512. died during load",
    ] {
        let out = converse(&format!("{run}\n"));
        assert!(
            out.contains("This is not a transient: the weights alone are"),
            "{run}: {out}"
        );
        assert!(
            out.contains("No step of the ladder can help this run"),
            "{run}: {out}"
        );
        assert!(
            out.contains("the same run with QLoRA (a 4-bit base)"),
            "{run}: {out}"
        );
        assert!(
            !out.contains("shall I give you the command?"),
            "{run}: {out}"
        );
        assert!(!out.contains("I have the training log"), "{run}: {out}");
    }
}

#[test]
fn a_flush_question_is_told_why_it_cannot_help() {
    for ask in [
        "can i just drop caches and retry?",
        "what about flushing the page cache?",
    ] {
        let out = converse(&format!(
            "lora on llama 3.3 70b in bf16, batch 1, packing 1024. killed while loading shards\n\n{ask}\n"
        ));
        assert!(
            out.contains("Not for this OOM: the weights alone are 141.11 GB, over the"),
            "{ask}: {out}"
        );
    }
}

#[test]
fn more_evidence_of_the_same_oom_does_not_reprint_the_ladder() {
    let out = converse(&format!(
        "lora on llama 3.3 70b in bf16, batch 1, packing 1024. killed while loading shards\n\n{KERNEL}\n"
    ));
    assert!(
        out.contains("The kernel's OOM killer killed `python`"),
        "{out}"
    );
    assert!(
        out.contains("This changes no step of the OOM ladder above."),
        "{out}"
    );
    assert_eq!(
        out.matches("OOM ladder for the OOM reported").count(),
        1,
        "{out}"
    );
}

#[test]
fn a_mid_step_oom_gets_its_smaller_batch_step_when_loading_binds_the_plan() {
    // After a shorter packing, loading binds this plan; the OOM was
    // mid-step, where a smaller batch still lowers what failed.
    for oom in [
        "OOM at step 120, mid-training",
        "it crashed mid-step around step 400 with CUDA out of memory",
    ] {
        let out = converse(&format!(
            "qlora qwen2.5 14b, batch 2, packing 1024, bf16\n\n{oom}\n\nyes\n\nstill OOMs\n\nyes\n\nstill OOMs\n"
        ));
        assert!(
            out.contains("- step 2: smaller batch: proposed, waiting for your yes or no"),
            "{oom}: {out}"
        );
        assert!(!out.contains("smaller batch: skipped"), "{oom}: {out}");
    }
}

/// A plan that does not fit at any packing or batch says what would: the
/// changes beyond them that fit, each with its figure.
#[test]
fn a_plan_beyond_packing_and_batch_names_what_would_fit() {
    for (run, wanted) in [
        (
            "lora llama 3.3 70b bf16, batch 1, packing 1024",
            "what would: QLoRA (a 4-bit base) 55.21 GB, or Llama 3.1 8B",
        ),
        (
            "full fine-tune of Llama 3.1 70B in bf16, batch 1, packing 2048",
            "what would: QLoRA (a 4-bit base) 61.07 GB, or Llama 3.2 3B",
        ),
        (
            "full fine-tune qwen2.5 32b, bf16, batch 1, packing 1024",
            "what would: QLoRA (a 4-bit base)",
        ),
    ] {
        let out = converse(&format!("{run}\n")).replace('\n', " ");
        assert!(out.contains("does not fit either"), "{run}: {out}");
        assert!(out.contains(wanted), "{run}: {out}");
    }
}
