//! Follow-ups about a model server and the solver in other words: "what
//! frac would work", "how do I restart it at 0.4", "can it stay up while
//! this trains", "longest ctx that fits", and nvidia-smi's `--query-gpu`
//! snapshot on GB10.

use crate::support::{converse, from_last};

const VLLM_LOG: &str = "INFO 03-29 20:10:02 [__init__.py:239] Automatically detected platform cuda.\nINFO 03-29 20:10:05 [api_server.py:1043] non-default args: {'model': 'Qwen/Qwen3-32B', 'gpu_memory_utilization': 0.8}\nINFO 03-29 20:11:40 [gpu_model_runner.py:1329] Model loading took 34.22 GiB and 85.3 seconds\nINFO 03-29 20:12:30 [gpu_worker.py:227] Available KV cache memory: 56.64 GiB";

#[test]
fn which_fraction_would_work_after_a_server_log_gets_the_largest_one() {
    for ask in [
        "what frac would work",
        "which fraction should I use then?",
        "what gpu memory utilization would do it",
    ] {
        let out = converse(&format!(
            "vllm is up, log below. want qlora llama 3.1 70b bs1 pack 2048 alongside. ok?\n{VLLM_LOG}\n\n{ask}\n"
        ));
        // The turn's reply is the last one: after the first answer's block.
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
        let reply = from_last(&out, "For vLLM beside your run, the largest fraction");
        assert!(
            reply.contains("i.e. `--gpu-memory-utilization 0.44`"),
            "{ask}: {reply}"
        );
    }
}

#[test]
fn a_restart_at_the_owner_s_fraction_waits_for_a_yes() {
    for ask in [
        "ok how do i restart it at 0.4",
        "relaunch it with 0.4 then",
        "let's restart vllm at 0.4",
    ] {
        let out = converse(&format!(
            "vllm is up, log below. want qlora llama 3.1 70b bs1 pack 2048 alongside. ok?\n{VLLM_LOG}\n\n{ask}\n\nyes\n"
        ));
        let proposal = from_last(&out, "Restart vLLM with");
        assert!(
            proposal.contains("`--gpu-memory-utilization 0.4`: the fraction you chose"),
            "{ask}: {proposal}"
        );
        assert!(proposal.contains("(yes/no)"), "{ask}: {proposal}");
        // The command comes only after the yes, with the served model.
        let before_yes = out.split("Approved.").next().unwrap_or_default();
        assert!(
            !before_yes.contains("vllm serve Qwen/Qwen3-32B"),
            "{ask}: {out}"
        );
        assert!(
            out.contains(
                "vllm serve Qwen/Qwen3-32B <your other flags> --gpu-memory-utilization 0.4"
            ),
            "{ask}: {out}"
        );
    }
    // "if I bring it back at 0.5" weighs it instead: the share arithmetic.
    let out = converse(&format!(
        "vllm is up, log below. want qlora llama 3.1 70b bs1 pack 2048 alongside. ok?\n{VLLM_LOG}\n\nand if I bring vllm back at 0.5?\n"
    ));
    assert!(out.contains("0.5 × 121.69 GiB"), "{out}");
    assert!(!out.contains("the fraction you chose"), "{out}");
}

#[test]
fn a_server_kept_up_is_judged_by_the_memory_paste_taken_beside_it() {
    let free = "               total        used        free      shared  buff/cache   available\nMem:           119Gi        75Gi       1.3Gi       385Mi        43Gi        43Gi\nSwap:           15Gi       818Mi        15Gi";
    for ask in [
        "and can the vllm server just stay up while this trains? I'd rather not restart it",
        "can I keep vllm running during it?",
        "vllm is already running, can I train beside it?",
    ] {
        let out = converse(&format!(
            "LoRA on Llama 3.1 8B, bf16, batch 2, seq len 2048. our vllm server is up, free -h:\n{free}\n\n{ask}\n"
        ));
        let reply = from_last(&out, "Your memory paste was taken with vLLM up");
        assert!(
            reply.contains("already out of the 42.17 GB budget"),
            "{ask}: {out}"
        );
        // Its default fraction is not added on top a second time.
        assert!(!reply.contains("0.9 × 121.69 GiB"), "{ask}: {reply}");
    }
}

#[test]
fn so_after_an_nvidia_smi_paste_with_a_complete_run_judges_the_verdict() {
    let smi = "+-----------------------------------------------------------------------------------------+\n| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |\n+-----------------------------------------+------------------------+----------------------+\n| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n|                                         |                        |               MIG M. |\n|=========================================+========================+======================|\n|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |\n| N/A   45C    P0             11W /  N/A  | Not Supported          |      0%      Default |\n|                                         |                        |                  N/A |\n+-----------------------------------------+------------------------+----------------------+";
    let free = "               total        used        free      shared  buff/cache   available\nMem:           119Gi        75Gi       1.3Gi       385Mi        43Gi        43Gi\nSwap:           15Gi       818Mi        15Gi";
    for ask in ["so? is that bad?", "is that a problem?", "so?"] {
        let out = converse(&format!(
            "LoRA on Llama 3.1 8B, bf16, batch 4, seq len 2048. the box right now:\n{smi}\n{free}\n\n{ask}\n"
        ));
        let reply = from_last(&out, "It does not fit: Llama 3.1 8B LoRA's peak");
        assert!(reply.contains("over the 42.17 GB budget"), "{ask}: {out}");
        assert!(!out.contains("nvidia-smi cannot tell you"), "{ask}: {out}");
    }
}

#[test]
fn the_longest_context_in_other_words_is_solved_and_adopted() {
    for ask in [
        "whats the longest ctx that fits",
        "max context length I can run?",
        "how long can the context be?",
    ] {
        let out = converse(&format!(
            "llama 3.1 70b qlora, 4k ctx, bs 1\n\nfree -g says 98 available\n\n{ask}\n\nok use that\n"
        ));
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
        assert!(out.contains("Changed: pack 4096 → "), "{ask}: {out}");
        assert!(!out.contains("no what-if on the table"), "{ask}: {out}");
    }
    // A figure after the words is a setting.
    let out = converse("llama 3.1 8b lora bf16, max seq length 4096, batch 2\n");
    assert!(out.contains("pack 4096"), "{out}");
    assert!(!out.contains("To find the packing length"), "{out}");
}

#[test]
fn a_query_gpu_snapshot_is_read_its_memory_fields_explained_not_budgeted() {
    for paste in [
        "nvidia-smi can't tell me free mem:\n$ nvidia-smi --query-gpu=index,name,memory.total,memory.free --format=csv\nindex, name, memory.total [MiB], memory.free [MiB]\n0, NVIDIA GB10, [N/A], [N/A]",
        "index, name, memory.used [MiB], power.draw [W]\n0, NVIDIA GB10, [N/A], 11.17 W",
        "nvidia-smi --query-gpu=name,memory.free,temperature.gpu --format=csv,noheader\nNVIDIA GB10, [N/A], 41",
    ] {
        let out = converse(&format!("{paste}\n"));
        assert!(
            out.contains("Your `nvidia-smi --query-gpu` snapshot"),
            "{paste}: {out}"
        );
        assert!(out.contains("[N/A]"), "{out}");
        assert!(!out.contains("I do not read the paste"), "{out}");
        assert!(out.contains("paste all three lines it prints"), "{out}");
        assert!(!out.contains("Noted: batch"), "{out}");
    }
    // With /proc/meminfo under it: both read, `free -g` not asked again.
    let out = converse(
        "tried another query, N/A there too. but meminfo has numbers:\n$ nvidia-smi --query-gpu=memory.total,memory.used,memory.free,utilization.gpu,power.draw,temperature.gpu --format=csv\nmemory.total [MiB], memory.used [MiB], memory.free [MiB], utilization.gpu [%], power.draw [W], temperature.gpu\n[N/A], [N/A], [N/A], 0 %, 11.17 W, 35\n  MemTotal:       127600748 kB\n  MemAvailable:   118566368 kB\n",
    );
    assert!(out.contains("MemAvailable 118566368 kB"), "{out}");
    assert!(out.contains("power.draw 11.17 W"), "{out}");
    assert!(out.contains("temperature.gpu 35 °C"), "{out}");
    assert!(!out.contains("paste all three lines it prints"), "{out}");
}

#[test]
fn a_crash_asked_about_is_answered_from_its_traceback_not_assumed_an_oom() {
    let tracebacks = [
        "Traceback (most recent call last):\n  File \"/workspace/train.py\", line 397, in <module>\n    main()\n  File \"/usr/local/lib/python3.12/dist-packages/peft/import_utils.py\", line 143, in is_torchao_available\n    raise ImportError(\nImportError: Found an incompatible version of torchao. Found version 0.14.0+git, but only versions above 0.16.0 are supported",
        "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    trainer.train()\n  File \"/usr/lib/python3/dist-packages/transformers/trainer.py\", line 2245, in train\n    return inner_training_loop(\nValueError: Attempting to unscale FP16 gradients.",
        "Traceback (most recent call last):\n  File \"sft.py\", line 12, in <module>\n    from trl import SFTTrainer\nModuleNotFoundError: No module named 'trl'",
    ];
    for words in [
        "it crashed right after loading, here's the error. is it out of memory again??",
        "was it an OOM? it died at step 40:",
        "did it oom?",
    ] {
        for tb in tracebacks {
            let out = converse(&format!("{words}\n{tb}\n"));
            let last = tb.lines().last().unwrap();
            assert!(
                out.contains(&format!(
                    "Not an out-of-memory error: the traceback ends in\n`{last}`"
                )) || out.contains(&format!(
                    "Not an out-of-memory error: the traceback ends in `{last}`"
                )),
                "{words}: {out}"
            );
            assert!(!out.contains("OOM noted"), "{words}: {out}");
            assert!(
                !out.contains("step 1: flush the page cache"),
                "{words}: {out}"
            );
        }
    }
    // Asked with nothing pasted: the error is asked for, no ladder.
    let out = converse("it died at step 40. was it an OOM?\n");
    assert!(out.contains("paste the traceback's last lines"), "{out}");
    assert!(!out.contains("OOM noted"), "{out}");
    // A reported OOM still opens the ladder, and an OOM traceback is not
    // called anything else.
    let out = converse(
        "it OOMed at step 40:\nTraceback (most recent call last):\n  File \"t.py\", line 9, in <module>\n    loss.backward()\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
    );
    assert!(out.contains("OOM noted"), "{out}");
    assert!(!out.contains("Not an out-of-memory error"), "{out}");
}

#[test]
fn a_stop_the_owner_says_is_done_is_noted_and_a_fresh_free_asked_for() {
    let ps = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nroot      530020  2.1 41.0 98765432 52428800 ?   Sl   08:10   5:12 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-32B";
    for done in ["done, it's gone", "ok killed it", "did it", "stopped vllm"] {
        let out = converse(&format!(
            "Going to do a full fine-tune of google/gemma-2-9b-it tonight, bf16, batch 1, packing 2048. ps aux:\n{ps}\n\nyes\n\n{done}\n"
        ));
        assert!(out.contains("`kill 530020`"), "{done}: {out}");
        let reply = from_last(&out, "Noted: you did it");
        assert!(reply.contains("stop vLLM"), "{done}: {reply}");
        assert!(reply.contains("Paste a fresh `free -g`"), "{done}: {reply}");
        assert!(!out.contains("found no run setting"), "{done}: {out}");
    }
    // Nothing approved before: "done" is not taken as a stop.
    let out = converse("Gemma 2 9B LoRA, bf16, batch 1, packing 2048\n\ndone, it's gone\n");
    assert!(!out.contains("Noted: you did it"), "{out}");
}

#[test]
fn leaving_a_process_alone_with_nothing_waiting_is_noted_not_a_dead_end() {
    for words in [
        "no, leave it, I'll reboot the box later",
        "nah keep it for now",
        "leave it running",
    ] {
        let out = converse(&format!(
            "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\n{words}\n"
        ));
        assert!(out.contains("Noted: nothing stopped"), "{words}: {out}");
        assert!(!out.contains("found no run setting"), "{words}: {out}");
        assert!(!out.contains("kill "), "{words}: {out}");
    }
}

#[test]
fn a_request_after_other_words_and_a_failure_told_before_its_server() {
    for words in [
        "ok leave ollama alone. full plan please",
        "thanks! show the full plan",
        "batch 4. full plan",
    ] {
        let out = converse(&format!(
            "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\n{words}\n"
        ));
        assert!(
            from_last(&out, "## Headroom plan: Qwen2.5 7B LoRA")
                .contains("Estimate (GB = 10^9 bytes"),
            "{words}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{words}: {out}");
    }
    // The failure first, the server after: the server's, not the training's.
    for words in [
        "box rebooted itself during a huge prompt to vllm. journal from that boot:",
        "the machine froze while serving a 128k request on ollama, kernel log:",
    ] {
        let out = converse(&format!(
            "{words}\nNov 29 10:02:11 spark kernel: NVRM: GPU0 nvAssertOkFailedNoLog: Assertion failed: NV_ERR_NO_MEMORY (0x00000051) returned from pRmApi->AllocWithHandle\n"
        ));
        assert!(out.contains("not your training run"), "{words}: {out}");
        assert!(!out.contains("OOM noted"), "{words}: {out}");
    }
    for ask in [
        "ok I'll start it. what interval?",
        "how often should it sample?",
    ] {
        let out = converse(&format!(
            "my run is 30% slower than yesterday, is it throttling?\n\n{ask}\n"
        ));
        assert!(
            out.contains("Sample every 30 to 60 seconds"),
            "{ask}: {out}"
        );
    }
}

#[test]
fn a_largest_value_that_is_only_tight_is_offered_and_adopted() {
    for ask in ["whats the largest batch that fits?", "max bs?"] {
        let out = converse(&format!(
            "full ft qwen2.5 7b bf16, batch 4, pack 2048. free -g says 116 available. fits?\n\n{ask}\n\nok use that\n"
        ));
        assert!(
            out.contains("**2** is the most that stays within the budget, and it is tight (119.12 GB of the 120.55 GB budget). Say \"use that\" to plan with it."),
            "{ask}: {out}"
        );
        assert!(out.contains("Changed: batch 4 → 2."), "{ask}: {out}");
        assert!(!out.contains("no what-if on the table"), "{ask}: {out}");
    }
}

#[test]
fn and_now_and_which_run_are_answered_from_where_things_stand() {
    for ask in ["and now?", "now what", "ok, what next?"] {
        let out = converse(&format!(
            "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\n{ask}\n"
        ));
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
    for ask in [
        "thx, which model are you planning for me btw?",
        "what model are you assuming?",
        "what's my run?",
    ] {
        let out = converse(&format!("qlora llama 3.1 70b, batch 1, 1k ctx\n\n{ask}\n"));
        // The reply to the question names the run with its settings.
        let first_verdict = out.find("**Verdict: fits.**").unwrap();
        assert!(
            out[first_verdict..].contains("Llama 3.1 70B QLoRA (bf16, adamw, batch 1, pack 1024)"),
            "{ask}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}

#[test]
fn free_right_now_is_shown_with_its_terms_in_a_follow_up() {
    let free_m = "              total        used        free      shared  buff/cache   available\nMem:         128817        8881        9009        5416      110926      112742\nSwap:         16383          13       16370";
    for ask in ["so?", "is that bad?"] {
        let out = converse(&format!(
            "qlora llama 3.1 70b, 2k seq, bs 1\n\nhere's free from the box\n{free_m}\n\n{ask}\n"
        ));
        // 9009 MiB = 9.44 GB (the reading's own figure), less the 4 GB reserve.
        assert!(
            out.contains("free right now, without reclaim, is 9.44 GB"),
            "{out}"
        );
        assert!(
            out.contains("9.44 GB free right now less the 4.00 GB reserve = 5.44 GB for the run"),
            "{ask}: {out}"
        );
        assert!(!out.contains("5.44 GB is free right now"), "{ask}: {out}");
    }
}

#[test]
fn why_the_flush_comes_first_is_answered_and_the_step_still_waits() {
    for ask in [
        "why flush first?",
        "why not smaller batch first?",
        "why start with the flush",
    ] {
        let out = converse(&format!(
            "llama 3.1 8b lora bf16 batch 2 pack 2048\n\nit OOMd at step 40\n\n{ask}\n"
        ));
        let reply = from_last(&out, "The flush comes first because");
        assert!(
            reply.contains("shorter packing, then a smaller batch"),
            "{ask}: {reply}"
        );
        // A question is not a yes: the step is still waiting.
        assert!(!out.contains("Approved."), "{ask}: {out}");
        assert!(
            out.contains("Still waiting for your yes or no on: step 1"),
            "{ask}: {out}"
        );
    }
}

/// A run that fits beside a server with under a tenth of what the server
/// leaves to spare is tight, as the plan's own verdict says of it: never a
/// plain "fits" (set 14, 14 T4: 27.40 GB in the 28.01 GB vLLM left at 0.7).
#[test]
fn a_fit_beside_a_server_within_the_tight_line_is_tight() {
    let run = "Llama 3.2 3B, LoRA, bf16, batch 4, 1k context";
    for (ask, tight) in [
        ("can it run next to vllm at 0.7?", true),
        ("and beside vllm at gpu_memory_utilization 0.69?", true),
        ("what about vllm at 0.5 next to it?", false),
    ] {
        let out = converse(&format!("{run}\n\n{ask}\n"));
        let reply = from_last(&out, "vLLM beside your run");
        assert!(reply.contains("they fit side by side"), "{ask}: {reply}");
        assert_eq!(reply.contains("but tight"), tight, "{ask}: {reply}");
        // The fraction that keeps the run under the line, with its terms:
        // (119.48 − 27.40 / 0.9 = 30.45) / 130.66 = 0.681… → 0.68.
        assert!(
            reply.contains("(119.48 GB − 27.40 GB / 0.9 = 30.45 GB) / 130.66 GB = 0.68"),
            "{ask}: {reply}"
        );
    }
    // Beside Ollama's loaded model: 119.48 − 70.00 = 49.48 GB left; a
    // 45.61 GB run is 92.2 % of it.
    let out = converse(
        "ollama ps on the spark:\nNAME            ID              SIZE     PROCESSOR    CONTEXT    UNTIL\ngpt-oss:120b    a951a23b46a1    70 GB    100% GPU     32768      4 minutes from now\nI want QLoRA on Llama 3.1 8B tonight, bf16 compute, batch 4, packing 2048, while ollama keeps gpt-oss loaded. ok?\n",
    );
    assert!(
        out.contains("It fits beside them, but tight: 45.61 GB is 92.2 % of the 49.48 GB left, margin +3.87 GB"),
        "{out}"
    );
    assert!(out.contains("**Verdict: tight.**"), "{out}");
}

/// The run said in the words above a vLLM startup check (plain sentences,
/// no stamps) is the owner's run; the check is the server's (set 14, 02 T1).
#[test]
fn a_run_said_above_a_vllm_startup_check_is_planned_beside_it() {
    let check = "Free memory on device (110.34/121.69 GiB) on startup.\nDesired GPU memory utilization is (0.87, 105.87 GiB).\nActual usage is 86.93 GiB for consumed memory (weights + non-torch),\n3.6 GiB for peak activation, and 0.26 GiB for CUDAGraph memory.";
    for (words, noted) in [
        (
            "qlora llama 3.1 70b, bs1, ctx 2k. vllm already up on the box, its startup said:",
            "Noted: model Llama 3.1 70B, method QLoRA, batch 1",
        ),
        (
            "lora on qwen2.5 7b, bf16, batch 2, packing 2048 -- the vllm log printed this:",
            "Noted: model Qwen2.5 7B, method LoRA, dtype bf16, batch 2, pack 2048",
        ),
    ] {
        let out = converse(&format!("{words}\n{check}\n"));
        assert!(out.contains(noted), "{words}: {out}");
        assert!(out.contains("0.87 × 121.69 GiB"), "{words}: {out}");
        assert!(!out.contains("your run: not planned yet"), "{words}: {out}");
        assert!(
            !out.contains("gpu_memory_utilization 0.87 (you said"),
            "{out}"
        );
    }
}

/// A vLLM server killed for memory with no training on the box (set 14,
/// 05): "what do I change?" gets the two bounds on its fraction with their
/// arithmetic (never a training run asked for), "should I flush first?"
/// offers the flush for a yes, and the yes gives the command and asks for
/// the server's relaunch.
#[test]
fn a_server_killed_for_memory_gets_its_fraction_bounds_and_a_flush_offer() {
    let dmesg = "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\nVLLM::Worker_TP invoked oom-killer: gfp_mask=0x102cc2(GFP_HIGHUSER)";
    for (said, ask) in [
        (
            "there is no training on the box right now, only vllm, the model takes about 74 GiB.",
            "what do I change?",
        ),
        (
            "nothing is training, vllm's model is like 74 GiB.",
            "what should I do now?",
        ),
    ] {
        let out = converse(&format!(
            "my vllm keeps getting killed right after the weights finish loading. dmesg on the box:\n{dmesg}\n\n{said} {ask}\n\nshould I flush the cache first? how?\n\nyes\n"
        ));
        assert!(
            !out.contains("To plan this run I still need"),
            "{said}: {out}"
        );
        // (119.48 GB idle budget) / 130.66 GB = 0.914… → 0.91.
        assert!(out.contains("at most 0.91"), "{said}: {out}");
        // 74 GiB / 121.69 GiB = 0.6081… → 0.61 (up).
        assert!(
            out.contains("at least 0.61: the weights' 79.46 GB (74.00 GiB"),
            "{said}: {out}"
        );
        assert!(
            out.contains("shall I give you the command? (yes/no)"),
            "{out}"
        );
        let yes = from_last(&out, "Approved.");
        assert!(
            yes.contains("sync; echo 3 > /proc/sys/vm/drop_caches"),
            "{yes}"
        );
        assert!(yes.contains("relaunch the server"), "{yes}");
        assert!(!out.contains("Still waiting for your yes or no"), "{out}");
    }
}

/// What the listing's other processes hold comes off the pool in the
/// sharing answer and the pool table as it does in the verdict: one budget
/// in one reply (set 15, 13 T1: "they fit side by side" and "keep: caps +
/// your run fit" beside "does not fit").
#[test]
fn the_sharing_answer_and_the_pool_table_count_what_the_verdict_counts() {
    let out = converse(
        "I want to start a QLoRA of Llama 3.1 8B, batch 2, packing 4096. Can mine go alongside? This is ps aux:\nmaya      41822  2.1 47.9 98213344 62617088 ?     Sl   08:12   3:41 /home/maya/venv/bin/python3 /home/maya/venv/bin/vllm serve Qwen/Qwen2.5-32B-Instruct-AWQ --gpu-memory-utilization 0.5 --max-model-len 16384 --port 8001\nmaya      52210 98.7  9.1 41220416 11887104 pts/3 Rl+ 08:40  21:07 python3 -m trl.scripts.sft --model_name_or_path meta-llama/Llama-3.2-3B --per_device_train_batch_size 4\n\ncan my run go beside that vllm?\n",
    );
    assert!(out.contains("**Verdict: does not fit.**"), "{out}");
    // 11,887,104 KiB = 12.18 GB; 119.48 − 12.18 = 107.30 GB.
    assert!(
        out.contains("so the server and your run share 119.48 GB − 12.18 GB = 107.30 GB"),
        "{out}"
    );
    assert!(out.contains("they do not fit side by side"), "{out}");
    assert!(!out.contains("they fit side by side"), "{out}");
    // (107.30 − 45.61) / 130.66 = 0.472… → 0.47.
    assert!(
        out.contains("(107.30 GB − 45.61 GB) / 130.66 GB = 0.47"),
        "{out}"
    );
    assert!(out.contains("of the 107.30 GB pool budget"), "{out}");
    assert!(!out.contains("caps + your run fit"), "{out}");
}

#[test]
fn a_vllm_start_refused_for_kv_cache_gets_its_fix() {
    for words in [
        "vllm won't even start on my spark. wtf",
        "vllm dies at startup:",
    ] {
        let out = crate::support::converse(&format!(
            "{words}\nAvailable KV cache memory: 22.5 GiB\nValueError: To serve at least one request with the model's max seq len (196608),\n23.25 GiB KV cache is needed, which is larger than the available KV cache memory (22.5 GiB).\nBased on the available memory, the estimated maximum model length is 190272.\n"
        ));
        assert!(
            out.contains("needs 23.25 GiB of KV cache and only 22.5 GiB was left"),
            "{words}: {out}"
        );
        assert!(
            out.contains("`--max-model-len` at most 190272"),
            "{words}: {out}"
        );
        assert!(!out.contains("pre-allocated 22.5 GiB"), "{words}: {out}");
    }
}

#[test]
fn a_batch_then_a_bare_length_and_thousands_in_words_are_the_run() {
    for (turn, pack) in [
        ("LoRA qwen2.5 7b bf16 batch 2 4096", "pack 4096"),
        (
            "lora on llama 3.1 8b, batch 8 - no wait, 4 - and two thousand tokens per sample",
            "pack 2000",
        ),
        ("qlora qwen2.5 14b bs 1, 8192", "pack 8192"),
    ] {
        let out = crate::support::converse(&format!("{turn}\n"));
        assert!(out.contains(pack), "{turn}: {out}");
        assert!(out.contains("**Verdict:"), "{turn}: {out}");
    }
}

#[test]
fn must_i_stop_the_server_without_a_listing_is_answered_from_the_run_alone() {
    for ask in [
        "so i must stop vllm? i dont want, colleagues need it",
        "do I have to stop ollama?",
    ] {
        let out = crate::support::converse(&format!(
            "lora on gemma 2 9b, batch 8, 4k ctx, bf16\n\n{ask}\n"
        ));
        assert!(
            out.contains("would not be enough. Your run alone needs"),
            "{ask}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
        assert!(!out.contains("systemctl stop"), "{ask}: {out}");
    }
    let out = crate::support::converse(
        "lora qwen2.5 7b bf16, batch 2, packing 2048\n\nmust I stop vllm?\n",
    );
    assert!(out.contains("Not if they fit together"), "{out}");
}

#[test]
fn a_fraction_said_after_a_vllm_log_is_its_fraction() {
    let log = "Available KV cache memory: 22.5 GiB\nValueError: To serve at least one request with the model's max seq len (196608),\n23.25 GiB KV cache is needed, which is larger than the available KV cache memory (22.5 GiB).";
    for said in [
        "just set it to 0.85 like the forum said",
        "what fraction then?",
    ] {
        let out = crate::support::converse(&format!(
            "{log}\n\nlora qwen2.5 7b bf16 batch 2 4096\n\n{said}\n"
        ));
        assert!(
            out.contains("largest fraction that leaves your run its peak"),
            "{said}: {out}"
        );
        assert!(!out.contains("found no run setting"), "{said}: {out}");
    }
}

#[test]
fn unload_them_after_ollama_ps_proposes_the_unload_for_a_yes() {
    let ps = "NAME             ID              SIZE      PROCESSOR    CONTEXT    UNTIL\ngranite3.3:2b    07bd1f170855    2.7 GB    100% GPU     4096       4 minutes from now\nllama3.2:3b      a80c4f17acd5    3.4 GB    100% GPU     4096       4 minutes from now";
    for (ask, names) in [
        ("cool, unload them anyway", "`granite3.3:2b`, `llama3.2:3b`"),
        ("ok unload both", "`granite3.3:2b`, `llama3.2:3b`"),
    ] {
        let out = crate::support::converse(&format!(
            "qlora llama 3.1 8b, batch 4, packing 1024. ollama is running these:\n{ps}\n\n{ask}\n"
        ));
        assert!(
            out.contains(&format!("You asked to unload {names}")),
            "{ask}: {out}"
        );
        assert!(!out.contains("ollama stop"), "{ask}: {out}");
    }
}

#[test]
fn cpu_offload_on_a_spark_is_answered_as_the_same_pool() {
    for ask in [
        "What means fsdp_offload_params on this machine, do I need it?",
        "would cpu offload help?",
    ] {
        let out = crate::support::converse(&format!("{ask}\n"));
        assert!(out.contains("gives no extra room"), "{ask}: {out}");
    }
}

#[test]
fn a_size_said_for_an_uncapped_server_is_set_beside_the_run() {
    let out = crate::support::converse(
        "qlora llama 3.1 8b, batch 1, packing 1024\n\nmy friend want to load gpt-oss 20b in ollama at same time, like 13gb. is ok?\n",
    );
    assert!(out.contains("the 13.00 GB you said it holds"), "{out}");
    assert!(
        out.contains("19.56 GB + 13.00 GB = 32.56 GB of the 119.48 GB budget"),
        "{out}"
    );
}

#[test]
fn how_much_would_vllm_take_is_a_sharing_question() {
    for ask in [
        "how much would vllm take at 0.3?",
        "how much memory does the vllm server use at 0.3?",
    ] {
        let out = crate::support::converse(&format!(
            "lora qwen2.5 7b, batch 2, packing 2048\n\n{ask}\n"
        ));
        assert!(out.contains("0.3 × 121.69 GiB"), "{ask}: {out}");
        assert!(!out.contains("found no run setting"), "{ask}: {out}");
    }
}
