//! A step's result in the owner's plain words, whichever step it names:
//! the ladder moves on, never stalls, never re-asks "how did it go".

use crate::support::converse;

const RUN: &str = "qwen2.5 14b qlora, bf16, batch 2, packing 8192";

#[test]
fn a_repeated_failure_in_any_words_is_the_flush_result() {
    for result in [
        "Did the flush as root and relaunched. Froze again, around step 580.",
        "flushed. it crashed again at step 40",
        "did it, the run dies too",
        "ok, done. same thing, OOMs as well",
    ] {
        let out = converse(&format!("{RUN}\n\nOOM at step 40\n\nyes\n\n{result}\n"));
        let last = &out[out.rfind("Approved.").expect(&out)..];
        assert!(
            last.contains("Step 1: flush the page cache between runs: done, the OOM persists"),
            "{result}: {last}"
        );
        assert!(
            last.contains("Step 2 of the OOM ladder"),
            "{result}: {last}"
        );
        assert!(!last.contains("Tell me how it went"), "{result}: {last}");
    }
}

#[test]
fn a_result_that_names_another_step_records_that_step() {
    // The batch step proposed and waiting for a yes, then "batch 1 still
    // OOMs": the owner took it; step 3 is next, never "batch 1 → 1".
    let out = converse(&format!(
        "{RUN}\n\nOOM at step 40\n\nyes\n\nstill OOMs\n\nyes\n\nstill OOM with the shorter packing. can we drop batch to 1 instead?\n\nbatch 1 still OOMs, at step 57 now\n"
    ));
    let last = &out[out.rfind("Step 2: smaller batch").expect(&out)..];
    assert!(last.contains("done, the OOM persists"), "{last}");
    assert!(last.contains("Step 3 of the OOM ladder"), "{last}");
    assert!(!out.contains("batch 1 → 1"), "{out}");
    // The shorter packing said to fail before it was proposed.
    let out = converse(
        "Llama 3.1 70B QLoRA, bf16, batch 1, packing 2048\n\nit froze mid-step at step 600\n\nyes\n\nFroze again.\n\nthe shorter packing also dies, same NVRM lines in the log\n",
    );
    let last = &out[out.rfind("Step 2: shorter packing").expect(&out)..];
    assert!(last.contains("done, the OOM persists"), "{last}");
    assert!(
        !out.contains("You named the packing length without a value"),
        "{out}"
    );
}

#[test]
fn a_run_that_now_works_closes_the_ladder() {
    for result in [
        "flushed. it loads fine now and is training, step 40 already. thanks",
        "works now, past step 300",
        "it trains fine now",
    ] {
        let out = converse(&format!(
            "{RUN}\n\nit got killed while loading shards\n\nyes\n\n{result}\n"
        ));
        assert!(out.contains("the OOM is gone"), "{result}: {out}");
        assert!(!out[out.rfind("Approved.").unwrap()..].contains("Tell me how it went"));
    }
    // A failure beside the good news is no fix.
    let out = converse(&format!(
        "{RUN}\n\nOOM at step 40\n\nyes\n\nit loads fine now but dies as soon as it is training\n"
    ));
    assert!(!out.contains("the OOM is gone"), "{out}");
}

#[test]
fn the_kernels_kill_pasted_while_step_one_waits_is_read() {
    let out = converse(&format!(
        "{RUN}\n\nit gets killed while loading the checkpoint shards\n\ndmesg -T right after it died:\n[Thu Aug 27 00:39:44 2026] Out of memory: Killed process 3742074 (lmcache) total-vm:81306880kB, anon-rss:1058560kB, file-rss:21412kB\n"
    ));
    let last = &out[out.rfind("dmesg").unwrap_or(0)..];
    assert!(
        out.contains("killed `lmcache` (pid 3742074"),
        "{last}\n---\n{out}"
    );
}

/// A no with its reason or a question while a step waits declines that
/// step and the rest of the turn is read (set 15: 03 T6, 04 T3, 13 T4 were
/// refused as "a question or a hedge is not a yes"); a "no, I meant …"
/// with nothing waiting is a correction.
#[test]
fn a_no_with_a_reason_declines_and_the_rest_is_read() {
    let run = "lora llama 3.1 8b bf16 batch 2 packing 2048";
    for no in [
        "No, I don't want flush, the box is shared. next step?",
        "no. I do not want a flush here, what else?",
        "nope, not flushing a shared box. what else can I do?",
    ] {
        let out = crate::support::converse(&format!("{run}\n\nit OOMs at step 1\n\n{no}\n"));
        assert!(out.contains("Noted: you declined step 1"), "{no}: {out}");
        assert!(
            !out.contains("a question or a hedge is not a yes"),
            "{no}: {out}"
        );
        assert!(out.contains("Step 2 of the OOM ladder"), "{no}: {out}");
    }
    // The rest of the turn is a change of its own.
    let out = crate::support::converse(&format!(
        "{run}\n\nit OOMs at step 1\n\nno, I meant packing 1024\n"
    ));
    assert!(out.contains("Noted: you declined step 1"), "{out}");
    assert!(out.contains("pack 2048 → 1024"), "{out}");
    // Nothing waiting: a correction, not "nothing is waiting for a yes".
    let out = crate::support::converse(&format!("{run}\n\nno, I meant batch 4\n"));
    assert!(out.contains("Noted: batch 2 → 4"), "{out}");
    assert!(out.contains("- now: Llama 3.1 8B LoRA"), "{out}");
    assert!(!out.contains("Nothing is waiting for a yes or no"), "{out}");
}
