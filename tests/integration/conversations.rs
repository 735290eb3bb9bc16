//! Each conversation in tests/fixtures/conversations/ (copied from the shared set), piped through the binary,
//! checked for the behaviour its README asks for (not for exact text).

use crate::support::{Headroom, repo};

/// The replies to one shared conversation, and the transcript it left.
struct Conversation {
    out: String,
}

fn run(name: &str) -> Conversation {
    let path = repo().join("tests/fixtures/conversations").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let data = tempfile::tempdir().unwrap();
    let ran = Headroom::new(data.path()).stdin(&text).run().ok();
    Conversation { out: ran.stdout }
}

impl std::fmt::Display for Conversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.out)
    }
}

impl Conversation {
    fn has(&self, needle: &str) -> &Self {
        assert!(
            self.out.contains(needle),
            "missing {needle:?} in:\n{}",
            self.out
        );
        self
    }
    fn lacks(&self, needle: &str) -> &Self {
        assert!(
            !self.out.contains(needle),
            "unwanted {needle:?} in:\n{}",
            self.out
        );
        self
    }
    /// The part of the output after the last occurrence of `marker`.
    fn after(&self, marker: &str) -> String {
        let i = self
            .out
            .rfind(marker)
            .unwrap_or_else(|| panic!("no {marker:?} in:\n{}", self.out));
        self.out[i..].to_string()
    }
}

/// One conversation of the test's own, piped through a fresh data directory.
fn converse(text: &str) -> Conversation {
    let data = tempfile::tempdir().unwrap();
    Conversation {
        out: Headroom::new(data.path()).stdin(text).run().ok().stdout,
    }
}

#[test]
fn no_conversation_gets_the_old_dead_end() {
    let dir = repo().join("tests/fixtures/conversations");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            run(&name).lacks("I did not find anything");
        }
    }
}

#[test]
fn c01_a_question_is_answered_and_changes_nothing() {
    let c = run("01-question-is-not-a-change.txt");
    c.has("What if method QLoRA → LoRA")
        .has("cannot help")
        .has("does not estimate training speed");
    let status = c.after("I remember:");
    assert!(status.contains("method: QLoRA"), "{status}");
}

#[test]
fn c02_what_if_then_adopt() {
    let c = run("02-what-if-optimizer.txt");
    c.has("what if: Llama 3.1 8B full fine-tune (bf16, adamw_8bit")
        .has("your run as it is: Llama 3.1 8B full fine-tune (bf16, adamw,")
        .has("Adopted: the what-if is now your run.");
    assert!(c.after("I remember:").contains("optimizer: adamw_8bit"));
}

#[test]
fn c03_hub_id_and_trainer_args_on_one_line() {
    let c = run("03-hub-id-and-trainer-args.txt");
    c.has("model Gemma 2 9B")
        .has("rank 32")
        .has("batch 4")
        .has("pack 2048")
        .has("`gradient_accumulation_steps` changes no memory")
        .has("headroom plans the per-device batch (4)")
        .lacks("I could not read `google");
}

#[test]
fn c04_a_yaml_config_gives_every_setting() {
    let c = run("04-yaml-config-paste.txt");
    c.has("model Qwen2.5 32B")
        .has("method QLoRA")
        .has("pack 2048")
        .has("batch 1")
        .lacks("\"LLaMA-Factory\" is not in my model catalog");
}

#[test]
fn c05_phase_in_words_and_a_ladder_that_moves() {
    let c = run("05-oom-phase-in-words.txt");
    c.has("(mid-step)")
        .lacks("Was it mid-load or mid-step?")
        .has("sync; echo 3 > /proc/sys/vm/drop_caches")
        .has("Step 1: flush the page cache between runs: done, the OOM persists.")
        .has("Step 2 of the OOM ladder: shorter packing first.");
}

#[test]
fn c06_oom_while_loading() {
    let c = run("06-oom-while-loading.txt");
    c.has("(mid-load)")
        .lacks("Was it mid-load or mid-step?")
        .has("load-time transient")
        .has("dequantizes")
        .has("does not change what loading needs")
        .has("suspect the pool")
        .lacks("a smaller model:");
}

#[test]
fn c07_nvidia_smi_is_evidence_not_budget() {
    let c = run("07-nvidia-smi-as-evidence.txt");
    c.has("Not Supported")
        .has("no dedicated framebuffer")
        .has("/usr/lib/xorg/Xorg")
        .has("paste all three lines");
}

#[test]
fn c08_clear_questions_get_answers() {
    let c = run("08-off-topic-questions.txt");
    c.has("will this run fit?")
        .has("does not estimate training speed")
        .has("`--gpu-memory-utilization` is the fraction");
}

#[test]
fn c09_a_provisional_answer_without_free() {
    let c = run("09-no-free-yet.txt");
    c.has("**Verdict: fits.** Mistral 7B LoRA")
        .has("provisional")
        .has("idle Spark");
}

#[test]
fn c10_si_units_are_read_from_the_output() {
    let c = run("10-free-si-units.txt");
    c.has("`free -h --si` available 96G").has("92.00 GB budget");
}

#[test]
fn c11_meminfo_is_read() {
    let c = run("11-meminfo-paste.txt");
    c.has("MemAvailable 110566368 kB")
        .has("what a flush would return (OOM ladder step 1: root, between runs only, and only with your yes)");
}

#[test]
fn c12_ollama_model_counts_against_the_pool() {
    let c = run("12-ollama-beside.txt");
    c.has("`qwen2.5:72b` holds 51 GB").has("Forever");
}

#[test]
fn c13_moe_said_and_unknown_named() {
    let c = run("13-moe-and-unknown.txt");
    c.has("mixture of experts")
        .has("\"Falcon-H1 34B\" is not in my model catalog")
        .has("config.json");
}

#[test]
fn c14_a_correction_is_short() {
    let c = run("14-correction-is-short.txt");
    // The "Noted:" line says the change with the owner's words; the plans
    // before and after follow without a second line saying it again.
    c.has("Noted: pack 2048 → 8192")
        .has("Noted: batch 2 → 1")
        .lacks("Changed: pack 2048 → 8192");
    let last = c.after("Noted: batch 2 → 1");
    assert!(last.lines().count() < 12, "{last}");
    assert!(!last.contains("Estimate (GB"), "{last}");
}

#[test]
fn c15_absolute_paths_are_files() {
    let c = run("15-thermal-absolute-paths.txt");
    c.lacks("There is no `/home")
        .has("I could not read `/home/owner/runs/sft-0412/thermal.log`: no such file")
        .has("Run start: 2026-11-28 09:02:00");
}

#[test]
fn c16_every_line_reaches_the_dialogue() {
    let c = run("16-unbracketed-multiline.txt");
    c.has("model Qwen2.5 7B")
        .has("batch 2")
        .has("pack 1024")
        .has("dtype bf16");
}

#[test]
fn c17_anchors_reconciled() {
    let c = run("17-anchor-reconciled.txt");
    c.has("does not vouch for packing")
        .has("(beyond its pack ≤1024)");
}

#[test]
fn c18_vllm_and_its_engine_get_one_recommendation() {
    let c = run("18-pool-labels.txt");
    c.has("| 4188 | vLLM engine |")
        .has("goes with pid 4121")
        .has("vLLM's default 0.9")
        .has("no model is loaded");
    // One stop for the server and its engine, not two.
    let ask = c.after("Shall I tell you how to stop");
    assert!(ask.contains("pid 4121"), "{ask}");
    assert!(!ask.contains("pid 4188"), "{ask}");
}

/// When the run and Ollama's loaded model do not fit together, unloading the
/// model (keeping the server) is offered first, and given only on a yes.
#[test]
fn ollama_unload_comes_before_stopping_the_server() {
    let out = converse(
        "LoRA on Qwen2.5 32B, bf16, batch 1, packing 2048\n\n  NAME             ID              SIZE      PROCESSOR    CONTEXT    UNTIL\n  qwen2.5:72b      424bad2cc13f    51 GB     100% GPU     32768      Forever\n\nyes\n",
    );
    let before_yes = out.out.split("Approved.").next().unwrap_or("");
    assert!(
        before_yes.contains("unload `qwen2.5:72b` from Ollama (the server keeps running)"),
        "{out}"
    );
    assert!(!before_yes.contains("`ollama stop qwen2.5:72b`"), "{out}");
    out.has("`ollama stop qwen2.5:72b`");
    out.lacks("systemctl stop ollama");
}

/// A what-if in a setting the one-line title leaves out (checkpointing) names
/// it on both lines; "paged adamw 8bit" stays the paged optimizer; "halve the
/// batch" is read against the run's own batch.
#[test]
fn what_ifs_name_the_setting_and_read_relative_changes() {
    let out = converse(
        "full fine-tune Llama 3.1 8B, bf16, adamw, batch 4, seq len 4096, gradient checkpointing on\n\nwould it fit without gradient checkpointing?\n\nwhat if I use paged adamw 8bit instead?\n\nwhat if I halve the batch?\n",
    );
    out.has("pack 4096, checkpointing on): peak");
    out.has("pack 4096, checkpointing off): peak");
    out.has("What if optimizer adamw → paged_adamw_8bit");
    out.has("What if batch 4 → 2");
    out.has("(bf16, adamw, batch 2, pack 4096): peak");
}

/// A PyTorch OOM message's own figures are read back in both units and set
/// beside the plan; the settings the plan had to assume are named.
#[test]
fn an_oom_messages_figures_are_read_and_the_assumptions_named() {
    let out = converse(
        "my qlora run on qwen2.5 72b just crashed with this\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 102.33 GiB memory in use. Of the allocated memory 98.10 GiB is allocated by PyTorch, and 2.71 GiB is reserved by PyTorch but unallocated.\n",
    );
    // 102.33 GiB × 1.073741824 = 109.876 GB, rounded up as memory in use.
    out.has("this process held 102.33 GiB (109.88 GB)");
    // 119.70 - 1.02 - 102.33 = 16.35 GiB outside the process.
    out.has("so 16.35 GiB (17.56 GB) was in use outside");
    out.has("too fragmented");
    out.has("dtype, batch, packing assumed until you tell me yours");
}

/// A pasted vLLM startup log is the server's data: its paths and attention
/// backend never reach the run, and its fraction is set against the run.
#[test]
fn a_vllm_log_is_read_as_the_servers_memory_not_the_owners_words() {
    let log = std::fs::read_to_string(repo().join("tests/fixtures/vllm-startup-gb10.txt")).unwrap();
    let out = converse(&format!(
        "can I run vllm beside my training? it's a LoRA on Qwen2.5 14B, bf16, batch 4, packing 2048\n\n{}\n",
        log.trim()
    ));
    out.lacks("I could not read");
    out.lacks("attention sdpa");
    out.has("gpu_memory_utilization 0.8");
    // 0.8 × 121.69 GiB = 97.352 GiB = 104.531 GB, rounded up.
    out.has("0.8 × 121.69 GiB");
    out.has("= 104.54 GB");
    out.has("they do not fit side by side");
    out.has("`--gpu-memory-utilization 0.31`");
}

/// vLLM's startup refusal is read with its own figures.
#[test]
fn vllms_startup_refusal_is_explained_with_its_figures() {
    let log =
        std::fs::read_to_string(repo().join("tests/fixtures/vllm-startup-oom-error.txt")).unwrap();
    let out = converse(&format!("{}\n", log.trim()));
    out.has("vLLM refused to start");
    out.has("74.9 / 142.5 = 0.52");
    out.lacks("OOM noted");
}

/// "Can I run vLLM / Ollama beside my training?" is answered with the
/// numbers: a capped server's claim against the run, the largest fraction
/// that lets both run, and what the run leaves for a server with no cap.
#[test]
fn sharing_questions_are_answered_with_the_numbers() {
    let out = converse(
        "LoRA on Qwen2.5 14B, bf16, batch 4, packing 2048\n\ncan I run vllm beside my training?\n\ncan ollama share the box with the trainer?\n\nI want vllm with gpu-memory-utilization 0.3 next to it, does that fit?\n",
    );
    out.lacks("found no run setting");
    // vLLM's default 0.9 × 121.69 GiB = 109.521 GiB = 117.597 GB, rounded up.
    out.has("0.9 × 121.69 GiB");
    out.has("= 117.60 GB");
    // (119.48 − 78.08) / 130.66 = 0.3168… → 0.31.
    out.has("(119.48 GB − 78.08 GB) / 130.66 GB = 0.31");
    out.has("left beside your run: 119.48 GB − 78.08 GB = 41.40 GB");
    // 0.3 × 121.69 GiB = 36.507 GiB = 39.199 GB; with the run 117.28 GB.
    out.has(
        "39.20 GB + 78.08 GB = 117.28 GB against the 119.48 GB pool budget: they fit side by side, but tight: your run's 78.08 GB is 97.3 % of the 119.48 GB − 39.20 GB = 80.28 GB the server leaves",
    );
    // "the trainer" is not a framework.
    out.lacks("framework hf");
}

/// A slowdown in words is sized in step time; the room and the sampler are
/// answered, never a dead end.
#[test]
fn a_slowdown_in_words_is_sized_and_the_thermal_questions_answered() {
    let out = converse(
        "my training slowed from 2.1 it/s to 1.4 it/s after about an hour, is it thermal throttling?\n\nthe box is in a closet, fan is loud\n\nwhat should I sample?\n",
    );
    out.lacks("found no run setting");
    // 2.1 / 1.4 = 1.5: 50 % longer per step.
    out.has("each step takes 50.0 % longer");
    out.has("I judge throttling only from samples");
    out.has("clock-event (throttle) flags");
}

/// A kernel OOM-killer paste names its victim; "still" alone is a step's
/// result; a full fine-tune's exhausted ladder offers the changes the ladder
/// does not make, each planned.
#[test]
fn a_full_fine_tunes_ladder_runs_to_the_end_with_figures() {
    let kernel =
        std::fs::read_to_string(repo().join("tests/fixtures/kernel-oom-kill.txt")).unwrap();
    let out = converse(&format!(
        "full fine-tune of Qwen2.5 7B, bf16, adamw, batch 8, packing 4096\n\n{}\n\nmid-step, around step 200\n\nyes\n\nstill dies\n\nyes\n\nstill OOMs\n\nyes\n\nstill\n",
        kernel.trim()
    ));
    out.has("killed `lmcache` (pid 3742074");
    out.has("Step 2: smaller batch: done, the OOM persists.");
    out.has("The ladder is done and the OOM persists.");
    out.has("the same run with an 8-bit optimizer (adamw_8bit): ");
    out.has("the same run with LoRA instead of a full fine-tune: ");
}

/// An Ollama server log is the server's data: its `--batch-size 512` never
/// becomes the run's batch.
#[test]
fn an_ollama_server_log_never_sets_the_runs_batch() {
    let log = std::fs::read_to_string(repo().join("tests/fixtures/ollama-server-log.txt")).unwrap();
    let out = converse(&format!(
        "LoRA on Qwen2.5 7B, bf16, batch 2, packing 2048\n\n{}\n\n/status\n",
        log.trim()
    ));
    out.has("Read from your Ollama server log");
    out.has("8,192 / 4 = 2,048 tokens each");
    out.lacks("batch 512");
    assert!(out.after("I remember:").contains("batch: 2"), "{out}");
}

/// Unsloth's load banner names transformers too: the run's framework is
/// unsloth, set once, never flipped to hf and back.
#[test]
fn unsloths_banner_sets_unsloth_once() {
    let banner =
        std::fs::read_to_string(repo().join("tests/fixtures/unsloth-load-banner-gb10.txt"))
            .unwrap();
    let out = converse(&format!("{}\n", banner.trim()));
    out.has("framework unsloth");
    out.lacks("→ hf");
    out.lacks("hf →");
}

/// A training log that reports its own peak memory gets it read back in
/// both units, beside the plan's figure.
#[test]
fn a_trainers_own_memory_report_is_read_beside_the_plan() {
    let log = std::fs::read_to_string(repo().join("tests/fixtures/axolotl-summary.txt")).unwrap();
    let out = converse(&format!(
        "LoRA on Llama 3.1 8B, bf16, batch 2, packing 512\n\n{}\n",
        log.trim()
    ));
    // 7.89 GiB × 1.073741824 = 8.4718 GB, rounded up.
    out.has("reserved by PyTorch's allocator 7.89 GiB (8.48 GB)");
    out.has("peak allocated 2.42 GiB (2.60 GB)");
    out.has("your peak allocated 2.42 GiB (2.60 GB) beside the plan's allocated");
    out.has("your reserved 7.89 GiB (8.48 GB) beside the plan's reserved");
}

/// `nvidia-smi dmon` output: with `-o DT` it is thermal samples and gets
/// the check; without dates (GB10's capture) it says why it cannot be used.
#[test]
fn dmon_output_is_thermal_samples_when_it_carries_time() {
    let dated = converse(&crate::support::fixture("dmon-dt-power-temp-made-up.txt"));
    dated.has("## Thermal check: thermal throttling");
    // The evidence is one word away.
    let details = converse(&format!(
        "{}\n\ndetails\n",
        crate::support::fixture("dmon-dt-power-temp-made-up.txt")
    ));
    details.has("thermal samples: 40 from 2026-11-28 09:02:00");
    let gb10 =
        std::fs::read_to_string(repo().join("tests/fixtures/nvidia-smi-dmon-gb10.txt")).unwrap();
    let undated = converse(&gb10);
    undated.has("carry no date or time unless it runs with `-o DT`");
    undated.lacks("found no run setting");
}

/// `nvidia-smi -q -d PERFORMANCE`: the counters since the driver loaded say
/// whether the GPU ever throttled for heat, and the power cap is the
/// platform's ceiling, not a fault.
#[test]
fn an_nvidia_smi_q_snapshot_reads_the_throttle_counters() {
    let text =
        std::fs::read_to_string(repo().join("tests/fixtures/nvidia-smi-q-performance-gb10.txt"))
            .unwrap();
    // Piped turns end at blank lines; the REPL takes the paste whole.
    let paste: String = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let out = converse(&format!("{paste}\n"));
    // 50,284,264,713 µs = 50,284.26 s = 13.97 h.
    out.has("50,284,264,713 µs = 50,284.26 s (13.97 h)");
    out.has("has not throttled for heat since the driver loaded");
    out.has("clock limits active at that moment: none");
}

/// Short forms and solving: "seq 4096" is the packing; "the longest packing
/// that fits" needs no packing; a memory question names what it assumed; a
/// question about the seed's anchor is answered, not turned into a what-if.
#[test]
fn short_forms_solving_and_anchor_questions() {
    let out = converse(
        "LoRA on gemma 2 27b, bf16, bs 1\n\nhow much memory will it need?\n\nwhats the longest packing that fits?\n\nseq 4096\n\nwhy does the seed say 27B LoRA only fits at 1024 then?\n",
    );
    out.has("That figure assumes packing 2048 until you tell me yours.");
    out.has("Longest packing length that fits: **");
    out.has("pack 4096 (you said \"seq 4096\")");
    out.has("The seed's anchors are rules of thumb");
    out.lacks("27B parameters");
}

/// "why so little available?" after a nearly full `free` is answered with
/// who usually holds the pool and the listing to paste.
#[test]
fn little_available_is_answered_with_what_to_paste() {
    let free =
        std::fs::read_to_string(repo().join("tests/fixtures/free-h-spark-vllm-high.txt")).unwrap();
    let out = converse(&format!(
        "QLoRA on Llama 3.1 70B, batch 2, packing 4096\n\n{}\n\nwhy so little available?\n",
        free.trim()
    ));
    out.lacks("found no run setting");
    out.has("`ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep`");
}
