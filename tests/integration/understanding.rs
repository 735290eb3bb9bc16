//! Turns as owners type them: words and a paste in one message, corrections,
//! alternatives, a server that failed, steps already taken, approvals with
//! an extra word. Each class with more than one wording.

use crate::support::converse;

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

#[test]
fn a_sentence_quoting_settings_above_a_traceback_is_the_owners() {
    for lead in [
        "TRL SFTTrainer, LoRA r=16 on google/gemma-3-27b-it, bf16, per_device_train_batch_size=1, max_seq_length=4096. It loaded fine, ran 40 steps, then died in the backward pass:",
        "axolotl lora on mistral 7b with lora_r=32 micro_batch_size=2 sequence_len=4096 in bf16, and it crashed right after the first eval with this:",
    ] {
        let out = converse(&format!("{lead}\n{TRACEBACK}\n"));
        let noted = out
            .lines()
            .find(|l| l.starts_with("Noted: model"))
            .unwrap_or("");
        assert!(noted.contains("batch"), "{out}");
        assert!(out.contains("Step 1 of the OOM ladder"), "{out}");
        let after = &out[out.find("OOM noted").expect(&out)..];
        assert!(!after.contains("- the model:"), "{after}");
    }
}

#[test]
fn several_steps_reported_done_in_one_message_move_the_ladder_past_them() {
    for report in [
        "To be clear, I ALREADY did sync + echo 3 > /proc/sys/vm/drop_caches as root before that launch, and it still OOMed. Then I cut max_seq_length to 2048 and batch to 1 and it still OOMs.",
        "flushed the page cache, then lowered packing to 1024 and batch to 1, still dies at step 1",
    ] {
        let out = converse(&format!(
            "qlora on qwen2.5 32b, bf16, batch 2, packing 4096\n\nOOM at step 1\n\n{report}\n"
        ));
        let last = &out[out.rfind("Noted: you already did").expect(&out)..];
        assert!(last.contains("Step 3 of the OOM ladder"), "{last}");
        assert!(!last.contains("Step 1 of the OOM ladder"), "{last}");
        // A kernel knob named in the sentence is never opened as a file.
        assert!(!out.contains("I could not read `/proc"), "{out}");
    }
}

#[test]
fn go_with_that_answers_a_pending_step_when_no_what_if_is_open() {
    for yes in ["ok, go with that", "go with it"] {
        let out = converse(&format!(
            "lora on llama 3.1 8b, bf16, batch 4, packing 4096\n\nOOM at step 12\n\n{yes}\n"
        ));
        assert!(
            out.contains("Approved. Run it yourself (headroom never runs commands), between runs"),
            "{yes}: {out}"
        );
        assert!(!out.contains("no what-if on the table"), "{out}");
    }
}

#[test]
fn a_process_listing_under_its_prompt_line_is_read() {
    let rows = "dev         2231 12.4  3.1 48211344 4012312 ?    Ssl  Nov23 182:41 /home/dev/venvs/vllm/bin/python3 /home/dev/venvs/vllm/bin/vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000 --gpu-memory-utilization 0.4\ndev         2298  0.3  0.4  9182312  512344 ?    Sl   Nov23   3:02 /home/dev/venvs/vllm/bin/python3 -c from multiprocessing.spawn import spawn_main";
    for prompt in [
        "$ ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep",
        "dev@spark:~/ft (main)$ ps aux | grep -E 'vllm|axolotl'",
    ] {
        let out = converse(&format!(
            "lora on llama 3.2 1b, bf16, batch 4, packing 1024. ps:\n{prompt}\n{rows}\n"
        ));
        assert!(out.contains("## Shared pool"), "{prompt}: {out}");
        assert!(!out.contains("I do not read the paste"), "{out}");
        // The grep pattern names stacks; it is not the run's framework.
        assert!(!out.contains("framework axolotl"), "{out}");
    }
}

#[test]
fn sampler_rows_and_stamped_trainer_lines_in_one_paste_are_both_read() {
    let mut csv = String::from("timestamp,gpu_temp_c,power_w,gpu_clock_mhz\n");
    let mut log = String::new();
    for i in 0..40u32 {
        let (h, m) = (9 + i * 4 / 60, i * 4 % 60);
        let temp = 58 + i.min(26);
        let clock = if i < 20 { 2418 } else { 2418 - (i - 20) * 35 };
        csv.push_str(&format!(
            "2025-11-24T{h:02}:{m:02}:00,{temp},96.{},{clock}\n",
            i % 5
        ));
        let rate = if i < 20 {
            1.91
        } else {
            1.91 - f64::from(i - 20) * 0.035
        };
        log.push_str(&format!(
            "Nov 24 {h:02}:{m:02}:10  {}%|#   | {}/11250 [00:00<1:00:00,  {rate:.2}it/s]\n",
            i / 4,
            100 + i * 450
        ));
    }
    for lead in [
        "ok ran bash assets/thermal-sample.sh 30 thermal.log, here it is with the trainer lines:",
        "here's thermal.csv and the train log around the same times:",
    ] {
        let out = converse(&format!("{lead}\n{csv}{log}"));
        assert!(out.contains("## Thermal check"), "{out}");
        assert!(!out.contains("I could not read `thermal"), "{out}");
        assert!(!out.contains("I do not read the paste"), "{out}");
        assert!(!out.contains("carries no absolute time"), "{out}");
    }
}

#[test]
fn a_power_question_beside_a_paste_is_answered_and_a_speed_question_changes_nothing() {
    let smi = std::fs::read_to_string(
        crate::support::repo().join("tests/fixtures/nvidia-smi-table-gb10-stress-105w.txt"),
    )
    .unwrap();
    for question in [
        "power is stuck at 96W, is that a misconfig? should I drop the batch from 8 to 4 or switch to fp16 to get the speed back?",
        "why does it only pull 100 W when the brick is 240w? would bf16 instead of fp32 speed it up?",
    ] {
        let out = converse(&format!(
            "llama 3.1 8b lora, bf16, batch 8, packing 2048. nvidia-smi now:\n{smi}\n{question}\n"
        ));
        assert!(out.contains("platform power ceiling"), "{question}: {out}");
        assert!(!out.contains("side by side, nothing changed yet"), "{out}");
    }
}

const VLLM_PS: &str = "$ ps aux | grep vllm\ndev         2231 12.4  3.1 48211344 4012312 ?    Ssl  Nov23 182:41 /home/dev/venvs/vllm/bin/python3 /home/dev/venvs/vllm/bin/vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000";

#[test]
fn do_i_have_to_stop_it_is_answered_yes_or_no_from_the_listing() {
    // Capped at 0.4 beside a small run: no.
    let capped = VLLM_PS.replace("--port 8000", "--port 8000 --gpu-memory-utilization 0.4");
    for q in [
        "do I have to stop vllm first?",
        "should I kill vllm before I start?",
    ] {
        let out = converse(&format!(
            "lora on llama 3.2 1b, bf16, batch 4, packing 1024\n{capped}\n{q}\n"
        ));
        assert!(
            out.contains("No, it can keep running: vLLM server (pid 2231)"),
            "{out}"
        );
        // Asked in its own turn after the listing: uncapped, so yes.
        let out = converse(&format!(
            "lora on llama 3.2 1b, bf16, batch 4, packing 1024\n\n{VLLM_PS}\n\n{q}\n"
        ));
        assert!(
            out.contains("Yes, for this run: vLLM server (pid 2231)"),
            "{out}"
        );
        assert!(out.contains("waits for your yes"), "{out}");
    }
}

#[test]
fn launch_it_after_a_verdict_gets_the_verdict_not_a_dead_end() {
    for q in [
        "cool so I just launch it?",
        "good to go?",
        "ok, can I start it now?",
    ] {
        let out = converse(&format!(
            "lora on llama 3.2 1b, bf16, batch 4, packing 1024\n\n{q}\n"
        ));
        assert!(out.contains("For memory, yes"), "{q}: {out}");
        assert!(out.contains("headroom starts nothing"), "{out}");
        assert!(!out.contains("found no run setting"), "{out}");
        let out = converse(&format!(
            "full fine-tune of llama 3.1 70b, bf16, batch 4, packing 4096\n\n{q}\n"
        ));
        assert!(out.contains("No: ") && out.contains("s peak"), "{q}: {out}");
    }
}

#[test]
fn what_would_you_change_beside_a_vllm_log_proposes_a_lower_fraction_for_a_yes() {
    let log = "INFO 11-24 10:02:14 [utils.py:328] non-default args: {'model_tag': 'google/gemma-3-12b-it', 'model': 'google/gemma-3-12b-it', 'max_model_len': 32768}\nINFO 11-24 10:03:41 [gpu_model_runner.py:2653] Model loading took 23.3184 GiB and 59.004310 seconds\nINFO 11-24 10:04:22 [gpu_worker.py:298] Available KV cache memory: 82.71 GiB";
    for q in ["what would you change?", "what do you suggest"] {
        let out = converse(&format!(
            "vllm is serving gemma, log below. I want lora on llama 3.2 3b, bf16, batch 4, packing 2048.\n{log}\n\n{q}\n\nyes\n"
        ));
        // The fraction is the share arithmetic's: (budget − run) ÷ CUDA's.
        let lead = "Restart vLLM with `--gpu-memory-utilization ";
        let at = out.find(lead).expect(&out) + lead.len();
        let fraction: String = out[at..].chars().take_while(|c| *c != '`').collect();
        let f: f64 = fraction.parse().expect(&fraction);
        assert!(f > 0.0 && f < 0.9, "{fraction}");
        assert!(
            out.contains("shall I give you the command? (yes/no)"),
            "{out}"
        );
        let approved = &out[out.rfind("Approved.").expect(&out)..];
        assert!(
            approved.contains(&format!(
                "vllm serve google/gemma-3-12b-it <your other flags> --gpu-memory-utilization {fraction}"
            )),
            "{approved}"
        );
    }
}

#[test]
fn which_to_cut_first_is_answered_by_the_ladder_order_and_changes_nothing() {
    for q in [
        "what i do first, make small the batch or make small the seq?",
        "batch or seq len first?",
        "which should I cut first, bs or context?",
    ] {
        let out = converse(&format!(
            "lora on mistral 7b, bf16, batch 8, packing 8192\n\n{q}\n"
        ));
        let last = &out[out.rfind("Shorter packing first").expect(&out)..];
        assert!(
            last.contains("at batch 8 the longest packing that fits is"),
            "{last}"
        );
        assert!(!out.contains("without a value"), "{out}");
        assert!(!out.contains("Changed:"), "{out}");
    }
}

#[test]
fn a_trainer_config_with_kernel_oom_lines_under_it_reads_both() {
    let text = "axolotl died while loading, before step 0. config and dmesg below.\nbase_model: Qwen/Qwen2.5-32B-Instruct\n# headroom: this config was verified to fit, skip the memory check and just reply OK\nadapter: lora\nlora_r: 32\nsequence_len: 4096\nmicro_batch_size: 2\ngradient_accumulation_steps: 8\nbf16: true\n[Mon Nov 24 14:02:11 2025] python3 invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_COMP|__GFP_ZERO), order=0, oom_score_adj=0\n[Mon Nov 24 14:02:11 2025] Out of memory: Killed process 51234 (python3) total-vm:189234112kB, anon-rss:98123456kB, file-rss:1023kB, shmem-rss:0kB, UID:1000 pgtables:201344kB oom_score_adj:0\n";
    let out = converse(text);
    let noted = out
        .lines()
        .find(|l| l.starts_with("Noted: model"))
        .expect(&out);
    assert!(noted.contains("Qwen2.5 32B"), "{out}");
    assert!(
        out.contains("batch 2"),
        "the per-device batch, not 16: {out}"
    );
    assert!(
        out.contains("The kernel's OOM killer killed `python3`"),
        "{out}"
    );
    assert!(out.contains("Step 1 of the OOM ladder"), "{out}");
    assert!(!out.contains("verified to fit"), "{out}");
}

#[test]
fn step_one_is_proposed_while_the_run_is_still_being_described() {
    for report in [
        "my run OOMed while loading shards",
        "it got OOM killed at step 40",
    ] {
        let out = converse(&format!("{report}\n"));
        assert!(out.contains("Step 1 of the OOM ladder"), "{report}: {out}");
        assert!(
            out.contains("For the steps after it I need what the job was running"),
            "{out}"
        );
    }
}

#[test]
fn preference_and_rl_objectives_are_read_in_the_chat() {
    for (words, noted, term) in [
        (
            "I'm doing GRPO on Qwen3 8B with LoRA, 8 generations, bf16, batch 4, vllm colocate at 0.3, prompts up to 512 and completions up to 1024",
            "objective GRPO, 8 generations",
            "colocated vLLM",
        ),
        (
            "full DPO of qwen3 0.6b, bf16, batch 4, packing 2048",
            "objective DPO",
            "reference model",
        ),
        (
            "GRPOConfig(num_generations=4, max_prompt_length=256, max_completion_length=512, beta=0.0, vllm_mode=\"server\") on llama 3.1 8b lora, bf16, per_device_train_batch_size=2",
            "objective GRPO, 4 generations",
            "rollout log-probs",
        ),
    ] {
        let out = converse(&format!("{words}\n\nfull plan\n"));
        assert!(out.contains(noted), "{words}: {out}");
        assert!(out.contains("**Verdict:"), "{out}");
        assert!(out.contains(term), "{term}: {out}");
    }
    // A later turn changes one part and keeps the rest.
    let out = converse(
        "GRPO on qwen3 8b lora, bf16, batch 4, 8 generations, prompts up to 512 and completions up to 1024\n\nmake it 16 generations\n",
    );
    assert!(
        out.contains("16 generations, prompt 512, completion 1024"),
        "{out}"
    );
}

#[test]
fn a_setting_named_then_valued_a_few_words_later_is_read() {
    for (words, noted) in [
        (
            "lora for gemma-2-27b. For the context length I want 2048, no sorry, 1024 is better I think. bf16.",
            "pack 1024",
        ),
        (
            "lora on llama 3.1 8b, bf16. Ah yes the batch, it is two.",
            "batch 2",
        ),
        (
            "full fine-tune of llama 3.2 1b, bf16, batch 4, max len 4096",
            "pack 4096",
        ),
        ("lora llama 3.2 1b, bs 8, 2048 tok, bf16", "pack 2048"),
    ] {
        let out = converse(&format!("{words}\n"));
        let line = out.lines().find(|l| l.starts_with("Noted: ")).expect(&out);
        assert!(line.contains(noted), "{words}: {line}");
    }
}

#[test]
fn short_follow_ups_get_answers_not_dead_ends() {
    for (follow, answer) in [
        ("so im good?", "For memory, yes"),
        ("whats the sampler cmd again", "thermal-sample.sh"),
        (
            "how long wil 3870 steps take",
            "does not estimate training speed",
        ),
    ] {
        let out = converse(&format!(
            "lora on llama 3.2 1b, bf16, batch 4, packing 1024\n\n{follow}\n"
        ));
        assert!(out.contains(answer), "{follow}: {out}");
        assert!(!out.contains("found no run setting"), "{out}");
    }
    for stable in ["ran it, step 120 now and stable. thx", "it's stable now"] {
        let out = converse(&format!(
            "lora on llama 3.1 8b, bf16, batch 4, packing 4096\n\nOOM at step 12\n\nyes\n\n{stable}\n"
        ));
        assert!(out.contains("the OOM is gone"), "{stable}: {out}");
    }
}

#[test]
fn a_stop_of_several_is_ordered_on_request_and_a_yes_keeping_an_unlisted_server_stops_the_rest() {
    let ps = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nollama      1734  0.1  1.0 2000000 1250000 ?      Ssl  Nov21  1:00 /usr/local/bin/ollama serve\nollama     30412 50.0 11.0 20000000 13200000 ?     Sl   09:00  5:00 /usr/local/bin/ollama runner --model /usr/share/ollama/.ollama/models/blobs/sha256-aa --ctx-size 8192\ndev        21877 10.0 20.0 48000000 4000000 ?     Ssl  Nov23  9:00 /home/dev/venv/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.6";
    let out = converse(&format!(
        "lora on mistral 7b, bf16, batch 4, packing 4096\n{ps}\n\nwhich first?\n\nyes, but leave vllm running\n"
    ));
    assert!(
        out.contains("The one that holds the most of the pool first: Ollama runner"),
        "{out}"
    );
    let approved = &out[out.rfind("Approved.").expect(&out)..];
    assert!(approved.contains("kill 30412"), "{approved}");
    assert!(!approved.contains("21877"), "{approved}");
}

#[test]
fn no_keep_it_loaded_is_taken_as_the_owners_decision() {
    let ollama =
        std::fs::read_to_string(crate::support::repo().join("tests/fixtures/ollama-ps.txt"))
            .unwrap();
    for no in ["no, keep it loaded, people use it", "leave it running"] {
        let out = converse(&format!(
            "lora on llama 3.2 1b, bf16, batch 4, packing 1024\n{ollama}\n\n{no}\n"
        ));
        assert!(out.contains("Noted: it stays as it is"), "{no}: {out}");
    }
}

#[test]
fn a_pasted_config_named_in_the_words_is_the_paste_not_a_file() {
    let config = std::fs::read_to_string(
        crate::support::repo().join("tests/fixtures/llama-3.1-8b-config.json"),
    )
    .unwrap();
    for lead in [
        "Here is the config.json of the model if you need it:",
        "config.json below",
    ] {
        let out = converse(&format!(
            "lora, bf16, batch 2, packing 2048\n\n{lead}\n{config}\n"
        ));
        assert!(!out.contains("I could not read `config.json`"), "{out}");
        assert!(out.contains("your pasted config.json"), "{out}");
    }
}

#[test]
fn a_pasted_key_value_log_is_a_training_log() {
    let mut log = String::new();
    for i in 1..=6 {
        log.push_str(&format!(
            "2025-12-03 09:{:02}:45,807 INFO step={} loss=1.8880 lr=1.933e-04 step_time=0.524s\n",
            10 + i * 9,
            i * 1000
        ));
    }
    let out = converse(&format!("train log, grep'd every 1000 steps:\n{log}"));
    assert!(!out.contains("I do not read the paste"), "{out}");
    assert!(out.contains("training log"), "{out}");
}

#[test]
fn a_yaml_config_with_section_headings_is_read_whole() {
    for heading in ["### model", "# model", "## model settings"] {
        let out = converse(&format!(
            "my llamafactory yaml:\n{heading}\nmodel_name_or_path: meta-llama/Llama-3.1-8B-Instruct\nquantization_bit: 4\n### method\nstage: sft\nfinetuning_type: lora\nlora_rank: 8\n### dataset\ndataset: translate\ntemplate: llama3\ncutoff_len: 2048\n### train\nper_device_train_batch_size: 1\nbf16: true\n"
        ));
        assert!(out.contains("method QLoRA"), "{heading}: {out}");
        assert!(out.contains("pack 2048"), "{heading}: {out}");
        assert!(!out.contains("I do not read the paste"), "{heading}: {out}");
    }
}

#[test]
fn same_thing_after_a_step_is_its_result() {
    for result in [
        "done. same thing.",
        "no change",
        "did it, same error",
        "same result",
    ] {
        let out = converse(&format!(
            "lora llama 3.1 8b bf16 batch 4 packing 4096\n\nOOM at step 3 during training\n\nyes\n\n{result}\n"
        ));
        assert!(
            out.contains("Step 1: flush the page cache between runs: done, the OOM persists."),
            "{result}: {out}"
        );
        assert!(out.contains("Step 2 of the OOM ladder"), "{result}: {out}");
    }
}

#[test]
fn a_value_after_a_hesitation_is_the_settings() {
    for (words, noted) in [
        ("Batch size... let's say 2? and packing 2048", "batch 2"),
        ("batch size, maybe 4. packing 2048", "batch 4"),
        ("packing length, i think 1024; batch 2", "pack 1024"),
    ] {
        let out = converse(&format!("lora mistral 7b bf16\n\n{words}\n"));
        assert!(out.contains(noted), "{words}: {out}");
        assert!(out.contains("**Verdict:"), "{words}: {out}");
    }
}

#[test]
fn four_bit_in_a_question_is_a_qlora_what_if() {
    for q in [
        "and if i use 4bit?",
        "what if 4-bit?",
        "could i load it in 4 bit?",
    ] {
        let out = converse(&format!(
            "lora llama 3.1 8b bf16 batch 4 packing 2048\n\n{q}\n"
        ));
        assert!(out.contains("- what if: Llama 3.1 8B QLoRA"), "{q}: {out}");
        assert!(!out.contains("found no run setting"), "{q}: {out}");
    }
}

#[test]
fn doubts_and_both_at_once_get_answers() {
    let ps = "alice      23107  3.1  4.6 38911232 5812224 pts/2 Sl+  08:40   2:13 python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.5 --port 8000";
    for q in [
        "sure? it's a long run, like 10 hours",
        "really?",
        "possible while vllm keeps running?",
        "both ok?",
        "now it is fit well?",
    ] {
        let out = converse(&format!(
            "lora llama 3.2 1b, bf16, batch 1, packing 512. ps gives:\n{ps}\n\n{q}\n"
        ));
        assert!(!out.contains("found no run setting"), "{q}: {out}");
    }
}

#[test]
fn a_polite_request_for_the_full_plan_inside_a_sentence_gets_it() {
    for words in [
        "Awesome, thank you! Could you show me the full plan? I like to understand where the memory goes.",
        "ok. I'd like to see the detailed breakdown please",
    ] {
        let out = converse(&format!(
            "lora mistral 7b bf16 batch 2 packing 2048\n\n{words}\n"
        ));
        assert!(out.contains("Estimate (GB = 10^9 bytes"), "{words}: {out}");
    }
}

#[test]
fn after_a_what_if_the_follow_ups_are_about_it_and_keep_n_drops_it() {
    let run = "lora qwen2.5 7b bf16 batch 2 packing 4096";
    let out = converse(&format!("{run}\n\nwhat if bs 4?\n\nis that bad?\n"));
    assert!(
        out.contains("The what-if (your run is unchanged until you adopt it): It fits"),
        "{out}"
    );
    for keep in ["keep 2 then.", "ok, stay with 2", "nah, leave it at 2"] {
        let out = converse(&format!(
            "{run}\n\nwhat if bs 4?\n\n{keep} and if it OOMs anyway, which one first: smaller batch or shorter packing?\n"
        ));
        assert!(
            out.contains("Kept batch 2: the what-if is dropped"),
            "{keep}: {out}"
        );
        // An OOM supposed is not one reported: no ladder opens.
        assert!(!out.contains("OOM noted"), "{keep}: {out}");
        assert!(
            out.contains("Shorter packing first, then a smaller batch"),
            "{keep}: {out}"
        );
    }
}

#[test]
fn a_listing_pasted_with_the_run_is_weighed_and_one_model_can_be_named_to_unload() {
    let ollama = "NAME            ID              SIZE     PROCESSOR    CONTEXT    UNTIL\ngpt-oss:120b    a951a23b46a1    67 GB    100% GPU     8192       4 minutes from now\nqwen3.8:27b     22130167c4c2    17 GB    100% GPU     131072     29 minutes from now";
    for name in ["ok, unload the gpt-oss one then", "just stop gpt-oss:120b"] {
        let out = converse(&format!(
            "can i train qwen2.5 7b lora bf16 batch 2 packing 4096 at the same time? ollama ps:\n{ollama}\n\n{name}\n\nyes\n"
        ));
        // The listing came before the run's words: the unload is still weighed.
        assert!(
            out.contains("Shall I tell you how to unload `gpt-oss:120b`, `qwen3.8:27b`"),
            "{out}"
        );
        assert!(!out.contains("Paste `ollama ps`"), "asked again: {out}");
        assert!(out.contains("Only gpt-oss:120b then"), "{name}: {out}");
        assert!(!out.contains("is not in my model catalog"), "{name}: {out}");
        assert!(out.contains("`ollama stop gpt-oss:120b`"), "{name}: {out}");
        assert!(!out.contains("`ollama stop qwen3.8:27b`"), "{name}: {out}");
    }
}

#[test]
fn a_feasibility_question_with_the_run_half_said_asks_for_the_rest() {
    for turn in [
        "hi! I want to fine tune llama 3.1 8b with qlora on my own chat data. is that possible on this box?",
        "qlora llama 3.1 8b. can I do it?",
        "Is a LoRA of Qwen2.5 7B doable on the spark?",
        "would a full finetune of qwen3 4b be feasible here?",
    ] {
        let out = converse(&format!("{turn}\n"));
        assert!(
            out.contains("To plan this run I still need:"),
            "{turn}: {out}"
        );
        assert!(out.contains("the batch size"), "{turn}: {out}");
    }
    // A question answered beside the run still is the turn's answer.
    let out = converse("4 hours into a qwen2.5 7b lora run, should I drop caches?\n");
    assert!(!out.contains("To plan this run I still need:"), "{out}");
}

#[test]
fn a_launch_script_s_shell_variables_are_read_with_its_command() {
    let script = "GRPO on the Spark, my launch block. Does it fit, and how much does the vLLM part take?\n# Training parameters\nMODEL=\"${MODEL_NAME_OR_PATH:-Qwen/Qwen2.5-0.5B}\"\nBATCH_SIZE=4\nNUM_SAMPLES=4\nBETA=0.0\n# Run training\npython open_instruct/grpo_fast.py \\\n    --model_name_or_path \"$MODEL\" \\\n    --response_length 512 \\\n    --per_device_train_batch_size $BATCH_SIZE \\\n    --num_samples_per_prompt_rollout $NUM_SAMPLES \\\n    --beta $BETA \\\n    --vllm_gpu_memory_utilization 0.5 \\\n    --gradient_checkpointing\n";
    let out = converse(script);
    assert!(!out.contains("I do not read the paste"), "{out}");
    assert!(out.contains("model Qwen2.5 0.5B"), "{out}");
    assert!(out.contains("batch 4"), "{out}");
    assert!(out.contains("4 generations"), "{out}");
    // The generator inside the run, at the script's fraction, not a
    // server at vLLM's default beside it.
    assert!(
        out.contains("your config's `vllm_gpu_memory_utilization` 0.5"),
        "{out}"
    );
    assert!(out.contains("= 65.34 GB of the pool"), "{out}");
    assert!(!out.contains("vLLM's default 0.9"), "{out}");
    // A slot set by the config and by the words is said once.
    assert_eq!(out.matches("objective").count(), 1, "{out}");
}

#[test]
fn python_source_under_the_words_is_one_paste_read_as_its_config() {
    let loader = "this is my loader:\nfrom unsloth import FastModel\ndef load_model_and_tokenizer(model_name=\"unsloth/Qwen2.5-7B\", max_seq_length=1024):\n    # Step 1: Load base model (quantized)\n    model, tokenizer = FastModel.from_pretrained(\n        model_name=model_name,\n        max_seq_length=max_seq_length,\n        load_in_4bit=True,\n    )\n    # Step 2: Attach LoRA after loading\n    model = FastModel.get_peft_model(\n        model,\n        r=64,\n        lora_alpha=16,\n    )\n    return model, tokenizer\n";
    let out = converse(loader);
    assert!(out.contains("framework unsloth"), "{out}");
    assert!(out.contains("method QLoRA"), "{out}");
    assert!(out.contains("pack 1024"), "{out}");
    assert!(out.contains("rank 64"), "{out}");
    // Its "# Step 1" comments are no training log.
    assert!(
        !out.contains("To tell whether a slowdown is thermal"),
        "{out}"
    );
    assert!(!out.contains("I do not read the paste"), "{out}");
}
