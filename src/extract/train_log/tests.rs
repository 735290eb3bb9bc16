//! Unit tests for the training-log scanner.
use super::*;

fn read(text: &str) -> TrainLog {
    read_train_log(text.as_bytes(), None).unwrap()
}

#[test]
fn tqdm_updates_with_it_per_s_and_s_per_it() {
    assert_eq!(
        parse_bar(b"  1%|          | 10/1000 [00:02<03:38,  4.54it/s]INFO:root:x"),
        Some((10, 1000, 2.0, 1.0 / 4.54))
    );
    assert_eq!(
        parse_bar("120/1000 [05:01<36:40, 2.50s/it]".as_bytes()),
        Some((120, 1000, 301.0, 2.5))
    );
    assert_eq!(parse_bar(b"0/434 [00:00<?, ?it/s]"), None);
}

#[test]
fn real_hf_trainer_log_is_relative_until_anchored() {
    let log = read(include_str!(
        "../../../tests/fixtures/hf-trainer-it-per-s.txt"
    ));
    assert!(!log.anchored);
    assert_eq!(log.samples[0].step, 10);
}

#[test]
fn real_hf_log_with_an_info_timestamp_is_anchored() {
    let log = read(include_str!(
        "../../../tests/fixtures/hf-trainer-s-per-it-with-info.txt"
    ));
    assert!(log.anchored);
    assert!((log.samples[0].sec_per_step - 3857.31).abs() < 1e-9);
    assert_eq!(log.markers[0].kind, MarkerKind::Evaluation);
}

#[test]
fn real_axolotl_torchtune_and_lightning_bars() {
    let ax = read(include_str!(
        "../../../tests/fixtures/axolotl-end-of-run.txt"
    ));
    assert!(ax.anchored);
    assert!((ax.samples.last().unwrap().sec_per_step - 16.34).abs() < 1e-9);
    let tt = read_train_log(
        format!(
            "{}\n{}",
            include_str!("../../../tests/fixtures/torchtune-steps.txt"),
            include_str!("../../../tests/fixtures/torchtune-tqdm.txt")
        )
        .as_bytes(),
        None,
    );
    // torchtune's single tqdm line is one sample: not enough timing alone.
    assert!(tt.is_err() || tt.unwrap().anchored);
    // Lightning shows the epoch's average rate: per-step time comes from
    // redraws at least 30 s apart, and the second epoch's clock and step
    // count continue the first's.
    let lightning = "Epoch 0:  50%|█▌ | 500/1000 [03:20<03:20, 2.50it/s, v_num=1]\rEpoch 0: 100%|███| 1000/1000 [06:40<00:00, 2.50it/s]\rEpoch 1:  50%|█▌ | 500/1000 [03:40<03:40, 2.27it/s]\n";
    let l = read(lightning);
    assert_eq!(l.samples.len(), 3);
    assert_eq!((l.samples[2].t, l.samples[2].step), (620.0, 1500));
    assert!(
        (l.samples[2].sec_per_step - 0.44).abs() < 1e-9,
        "{:?}",
        l.samples[2]
    );
}

#[test]
fn timestamped_step_lines_without_a_bar() {
    let log = read(
        "2026-11-29 10:00:00 step 100 loss 1.0\n2026-11-29 10:00:50 step 120 loss 0.9\n2026-11-29 10:01:50 step 140 loss 0.9\n",
    );
    assert!(log.anchored);
    assert_eq!(log.samples.len(), 2);
    assert_eq!(log.samples[1].sec_per_step, 3.0);
}

#[test]
fn a_log_with_no_timing_says_so() {
    assert_eq!(
        read_train_log(
            include_str!("../../../tests/fixtures/trl-sft-metrics.txt").as_bytes(),
            None
        ),
        Err(TrainLogError::NoTiming)
    );
}

#[test]
fn the_owners_start_time_anchors_a_relative_log() {
    let log = read_train_log(
        include_str!("../../../tests/fixtures/hf-trainer-it-per-s.txt").as_bytes(),
        Some(1_000.0),
    )
    .unwrap();
    assert!(log.anchored);
    assert_eq!(log.samples[0].t, 1_002.0);
}

#[test]
fn one_line_is_a_log_only_when_it_cannot_be_words() {
    use super::looks_like_train_paste;
    assert!(looks_like_train_paste(
        " 26%|##▌       | 26/101 [06:45<17:27, 13.96s/it]"
    ));
    assert!(looks_like_train_paste("{'loss': 0.71, 'epoch': 0.13}"));
    assert!(!looks_like_train_paste(
        "it slowed from 2.1 it/s to 1.4 it/s"
    ));
    assert!(!looks_like_train_paste("Step 3 of the ladder did not help"));
}

#[test]
fn docker_json_file_records_are_read_with_their_stamps() {
    let text = (0..6)
        .map(|i| {
            format!(
                "{{\"log\":\"iter {}: loss 4.2000, time 2048.00ms, mfu 31.00%\\n\",\"stream\":\"stdout\",\"time\":\"2026-11-29T08:0{}:00.000000000Z\"}}\n",
                i * 10,
                i
            )
        })
        .collect::<String>();
    let log = read(&text);
    assert!(log.anchored, "the driver's stamps anchor the steps");
    assert!(
        log.samples
            .iter()
            .any(|s| (s.sec_per_step - 2.048).abs() < 1e-9)
    );
}

#[test]
fn an_interval_since_the_last_printed_step_is_spread_over_its_steps() {
    let text: String = (1..=12)
        .map(|i| {
            let secs = if i % 2 == 0 { "26.0" } else { "26.5" };
            format!(
                "INFO:tensorflow:loss = 6.2, step = {} ({secs} sec)\n",
                i * 100
            )
        })
        .collect();
    let log = read_train_log(text.as_bytes(), Some(0.0)).unwrap();
    let per: Vec<f64> = log.samples.iter().map(|s| s.sec_per_step).collect();
    assert!(per.contains(&0.26) && per.contains(&0.265), "{per:?}");
}

#[test]
fn durations_that_do_not_add_up_to_the_stamps_are_not_the_clock() {
    // ESPnet (held-out set 2's generator, tests/fixtures/logs/held2): a
    // stamped line every 120 batches whose `iter_time` is the data loader's
    // wait (0.0002 s), not the step's (about 0.46 s).
    let log = read(include_str!(
        "../../../tests/fixtures/logs/espnet2-held2-throttle.log"
    ));
    assert!(log.anchored);
    let fast = log.samples.iter().filter(|s| s.sec_per_step < 0.1).count();
    assert_eq!(fast, 0, "{} of {} samples", fast, log.samples.len());
}

/// A log whose lines are stamped with a time of day only, read with and
/// without the owner's start.
fn time_of_day_log(lines: &[&str], start: Option<f64>) -> TrainLog {
    read_train_log(lines.join("\n").as_bytes(), start).unwrap()
}

#[test]
fn time_of_day_stamps_are_dated_later_and_roll_over_midnight() {
    // tqdm_loggable's log form (openpi), rich's bracketed `[%X]`, and a
    // run that passes midnight.
    let loggable = time_of_day_log(
        &[
            "09:02:25.163 [I] Progress on: 5.00it/30.0kit rate:2.4s/it remaining:20:05:34 elapsed:00:12 postfix:-",
            "09:02:37.187 [I] Progress on: 10.0it/30.0kit rate:2.4s/it remaining:20:01:46 elapsed:00:24 postfix:-",
            "12:22:18.348 [I] Progress on: 4.62kit/30.0kit rate:3.0s/it remaining:21:13:49 elapsed:3:20:05 postfix:-",
        ],
        None,
    );
    assert!(loggable.anchored && loggable.dateless);
    let last = loggable.samples.last().unwrap();
    assert_eq!((last.step, last.sec_per_step), (4620, 3.0));
    let rich = time_of_day_log(
        &[
            "[23:59:40] step 100 loss 1.0",
            "[23:59:50] step 105 loss 1.0",
            "[00:00:10] step 115 loss 1.0",
        ],
        None,
    );
    assert!(rich.dateless);
    // 23:59:50 → 00:00:10 is 20 s on, not a day back.
    assert_eq!(rich.samples[1].t - rich.samples[0].t, 20.0);
    assert_eq!(rich.samples[1].sec_per_step, 2.0);
    // With the owner's start, the start's day dates it at once.
    let start = crate::extract::log_lines::civil(2026, 11, 29, 23, 59, 0.0).unwrap();
    let dated = time_of_day_log(
        &["[23:59:40] step 100 loss", "[00:00:10] step 115 loss"],
        Some(start),
    );
    assert!(!dated.dateless);
    assert_eq!(dated.samples[0].t, start + 70.0);
    // An interval at the start of a line is not a time of day.
    assert!(crate::extract::log_lines::find_stamp(b"00:12:30 12 steps").is_none());
    assert!(crate::extract::log_lines::find_stamp(b"25:00:00 step 1").is_none());
}

#[test]
fn a_bar_that_shows_its_average_rate_is_paced_from_its_elapsed_field() {
    // tqdm with smoothing=0 (kohya's sd-scripts): the rate is elapsed ÷
    // count, so a slowdown two hours in barely moves it. 1000 steps at 2 s,
    // then steps at 3 s.
    let mut text = String::new();
    let mut elapsed = 0.0;
    for step in 1..=1600u32 {
        elapsed += if step <= 1000 { 2.0 } else { 3.0 };
        let e = elapsed as u64;
        text.push_str(&format!(
            "\rsteps: {}%| | {step}/5000 [{:02}:{:02}:{:02}<1:00:00, {:.2}s/it, avr_loss=0.1]",
            step * 100 / 5000,
            e / 3600,
            e / 60 % 60,
            e % 60,
            elapsed / f64::from(step)
        ));
    }
    let log = read(&text);
    let last = log.samples.last().unwrap();
    assert!((last.sec_per_step - 3.0).abs() < 0.05, "{last:?}");
    // An ordinary smoothed rate that moves with the pace is kept as shown.
    let smoothed: String = (1..=400u32)
        .map(|step| {
            let e = 2 * step;
            format!(
                "\r{step}/5000 [{:02}:{:02}<1:00:00, {:.2}s/it]",
                e / 60,
                e % 60,
                if step < 200 { 2.0 } else { 2.6 }
            )
        })
        .collect();
    let log = read(&smoothed);
    assert_eq!(log.samples.last().unwrap().sec_per_step, 2.6);
}

#[test]
fn keras_frames_between_epoch_ends_give_the_pace_within_the_epoch() {
    // 1200 batches an epoch: 0.5 s each until batch 600, then 1.0 s; each
    // frame shows the running average, the last the epoch's seconds.
    let mut text = String::from("Epoch 1/2\n");
    let mut elapsed = 0.0;
    for done in 1..=1200u64 {
        elapsed += if done <= 600 { 0.5 } else { 1.0 };
        let avg_ms = (elapsed / done as f64 * 1000.0).round();
        if done < 1200 {
            text.push_str(&format!(
                "\r{done:>4}/1200 ━━━━━━━━━━━━━━━━━━━━ 5:00 {avg_ms}ms/step - loss: 1.0"
            ));
        } else {
            text.push_str(&format!(
                "\r1200/1200 ━━━━━━━━━━━━━━━━━━━━ {}s {avg_ms}ms/step - loss: 1.0 - val_loss: 1.0\n",
                elapsed as u64 + 10
            ));
        }
    }
    let log = read_train_log(text.as_bytes(), Some(0.0)).unwrap();
    let before = log.samples.iter().find(|s| s.step > 300).unwrap();
    assert!((before.sec_per_step - 0.5).abs() < 0.02, "{before:?}");
    let after = log.samples.iter().find(|s| s.step > 900).unwrap();
    assert!((after.sec_per_step - 1.0).abs() < 0.02, "{after:?}");
    // The epoch ends at its own seconds (validation included): from the
    // first frame kept (30 s in) to the last is the rest of those seconds.
    let (first, end) = (log.samples[0], *log.samples.last().unwrap());
    assert_eq!(end.step, 1200);
    assert_eq!(end.t - first.t, 910.0 - 0.5 * first.step as f64);
}

#[test]
fn a_steps_parts_and_whole_count_once() {
    // NeMo-RL prints the validation's time, then the step's total with the
    // validation in it: the step took 150 s, not 210.
    let text = "INFO 11-29 09:01:57 [gpu_worker.py:227] Available KV cache memory: 41.27 GiB\n\
        ===== Step 1/500 =====\n  • Total step time: 90.00s\n\
        ===== Step 2/500 =====\n    • Total validation time: 60.00s\n  • Total step time: 150.00s\n\
        ===== Step 3/500 =====\n  • Total step time: 90.00s\n";
    let log = read(text);
    // vLLM's month-day stamp anchors it (no year: dated from the samples).
    assert!(log.anchored && log.yearless);
    let t: Vec<f64> = log.samples.iter().map(|s| s.t - log.samples[0].t).collect();
    assert_eq!(t, vec![0.0, 150.0, 240.0]);
}

#[test]
fn month_day_stamps_are_words_of_their_own() {
    use crate::extract::log_lines::find_stamp;
    for line in [
        "INFO 11-29 09:01:44 [__init__.py:241] Automatically detected platform cuda.",
        "(VllmGenerationWorker pid=3391) WARNING 11-29 09:01:31 [utils.py:10] x",
        // RecBole's colorlog "%d %b %H:%M", to the minute.
        "29 Nov 09:02    INFO  epoch 0 training [time: 41.96s, train loss: 9874.8881]",
    ] {
        assert!(
            find_stamp(line.as_bytes()).is_some_and(|s| s.yearless),
            "{line}"
        );
    }
    // No such month, or the digits inside a longer word, is not a date.
    for line in ["layers 13-12 09:01:44 frozen", "run-11-29 09:01:44"] {
        assert!(find_stamp(line.as_bytes()).is_none(), "{line}");
    }
}

#[test]
fn stamps_of_more_loggers() {
    use crate::extract::log_lines::{civil, find_stamp};
    let at = civil(2026, 11, 29, 9, 5, 14.0).unwrap();
    for line in [
        // open_clip's "%Y-%m-%d,%H:%M:%S", Sockeye's date:time, lingua's
        // two-digit year, Horovod's time.asctime() prefix.
        "2026-11-29,09:05:14 | INFO | open_clip_train.train | Train Epoch: 1",
        "[2026-11-29:09:05:14:INFO:sockeye.training:__call__] E=0 B=11800",
        "0: INFO    26-11-29 09:05:14.000000 - 1:03:35 - step: 1330",
        "Sun Nov 29 09:05:14 2026[0]<stderr>:Train Epoch     #1:  74%",
        // MindSpore's own records: a dash between date and clock.
        "[WARNING] ME(51234:2814735,MainProcess):2026-11-29-09:05:14.000.000 [model.py:1105] x",
    ] {
        let s = find_stamp(line.as_bytes()).unwrap_or_else(|| panic!("{line}"));
        assert_eq!((s.t, s.yearless, s.dateless), (at, false, false), "{line}");
    }
}

#[test]
fn steps_and_durations_of_more_trainers() {
    use crate::extract::log_fields::text_fields;
    for (line, step, duration) in [
        (
            "iter_dt 265.06ms; iter 14190: train loss 1.02096",
            Some(14190),
            Some(0.26506),
        ),
        (
            "[2026-11-29 08:12:43] Ep. 1 : Up. 1500 : Sen. 1,048,165 : Cost 5.47",
            Some(1500),
            None,
        ),
        (
            "186000:\tlearn: 0.5331380\ttest: 0.5347030",
            Some(186000),
            None,
        ),
        (
            "[2026-11-29:09:05:14:INFO:sockeye.training:__call__] E=0 B=11800\ts/sec=838.76 u/sec=3.20",
            Some(11800),
            Some(1.0 / 3.2),
        ),
        (
            "Nov 29 10:06:33 spark python3[4711]: | epoch   2 |  9800/147467 batches | lr 20.00 | ms/batch 24.51 | loss  5.34",
            Some(2 * 147467 + 9800),
            Some(0.02451),
        ),
        (
            "Finished training it 13312/19187 of epoch 3, 45.22 ms/it, loss 0.459963 (10:02)",
            Some(3 * 19187 + 13312),
            Some(0.04522),
        ),
        (
            "2026-11-29,09:52:48 | INFO | open_clip_train.train | Train Epoch: 1 [  25856/1280000 (2%)] Data (t): 0.017",
            Some(1280000 + 25856),
            None,
        ),
    ] {
        let f = text_fields(line);
        assert_eq!(f.step, step, "{line}");
        match (f.duration, duration) {
            (Some(got), Some(want)) => assert!((got - want).abs() < 1e-9, "{line}: {got}"),
            (got, want) => assert_eq!(got, want, "{line}"),
        }
    }
    // ParlAI's step. (Its "time:3825s" is the clock since the start, read
    // here as a duration; the log's stamps outvote it: durations that do
    // not add up to the stamps' span are dropped.)
    let f = text_fields("10:05:57 | time:3825s total_exs:165984 total_steps:10374 epochs:0.55");
    assert_eq!(f.step, Some(10374));
    // CatBoost's "total:" is the clock only with its units.
    let f = text_fields("186000:\tlearn: 0.53\ttotal: 1h 4m 10s\tremaining: 3h 31m 49s");
    assert_eq!(f.elapsed, Some(3850.0));
    assert_eq!(text_fields("total: 5000\tsteps: 12").elapsed, None);
}

#[test]
fn set_up_progress_bars_are_no_training_log() {
    for text in [
        "Loading checkpoint shards:  63%|██████▎   | 19/30 [02:41<01:33,  8.50s/it]Killed",
        "Map: 100%|██████████| 51760/51760 [00:05<00:00, 9120.33 examples/s]\nTokenizing train dataset: 100%|██████████| 1000/1000 [00:01<00:00, 812.11it/s]",
        "Downloading shards: 100%|██████████| 4/4 [03:12<00:00, 48.10s/it]",
    ] {
        assert!(!super::looks_like_train_paste(text), "{text}");
    }
    // A training bar beside them is still a log.
    assert!(super::looks_like_train_paste(
        "Loading checkpoint shards: 100%|██████████| 4/4 [00:04<00:00,  1.10s/it]\n 13%|█         | 300/2250 [44:00<4:46:29,  8.81s/it]"
    ));
}

#[test]
fn a_banner_setting_never_claims_a_later_timing() {
    // darknet: "batch = 64" in the banner, then iterations, then an
    // evaluation's time with no step of its own: it follows iteration 3,
    // not step 64.
    let mut text = String::from("mini_batch = 4, batch = 64, time_steps = 1, train = 1\n");
    for i in 1..=3 {
        text += &format!(
            " {i}: 6.5, 6.8 avg loss, 0.001 rate, 3.40 seconds, {} images, 18.0 hours left\n",
            i * 64
        );
    }
    text += "Total Detection Time: 38 Seconds\n";
    text += " 4: 6.5, 6.8 avg loss, 0.001 rate, 3.40 seconds, 256 images, 18.0 hours left\n";
    let log = read_train_log(text.as_bytes(), Some(0.0)).unwrap();
    let steps: Vec<u64> = log.samples.iter().map(|s| s.step).collect();
    assert_eq!(steps, vec![1, 2, 3, 4]);
    let last = log.samples.last().unwrap();
    assert!(
        (last.t - (4.0 * 3.40 + 38.0 - 3.40)).abs() < 1e-6,
        "{last:?}"
    );
}

#[test]
fn a_table_redrawn_with_its_last_rows_counts_each_row_once() {
    // nerfstudio's LocalWriter reprints the header and its last rows every
    // 100 steps.
    let mut text = String::new();
    let mut rows: Vec<String> = Vec::new();
    for step in (0..=500).step_by(100) {
        rows.push(format!(
            "{step} ({:.2}%)      120.000 ms           2 h, 1 m, 2 s      ",
            step as f64 / 1000.0
        ));
        text += "\r\u{1b}[3A\u{1b}[1K\rStep (% Done)       Train Iter (time)    ETA (time)           \u{1b}[0m\n";
        text += "-------------------------------------------------------------- \u{1b}[0m\n";
        for row in rows.iter().rev().take(10).rev() {
            text += &format!("{row} \u{1b}[0m\n");
        }
    }
    let log = read_train_log(text.as_bytes(), Some(0.0)).unwrap();
    let steps: Vec<u64> = log.samples.iter().map(|s| s.step).collect();
    assert_eq!(steps, vec![0, 100, 200, 300, 400, 500]);
    // Step 0's own time, then 100 steps at 0.12 s between each row.
    assert!(
        (log.samples[5].t - 501.0 * 0.12).abs() < 1e-6,
        "{:?}",
        log.samples[5]
    );
}

#[test]
fn a_bar_that_shows_no_rate_is_paced_by_its_elapsed_field() {
    // ignite's ProgressBar: "[n/total]" and "[elapsed<remaining]", no it/s.
    assert_eq!(
        parse_bar(b"Epoch [1/30]: [7/1000]   1%|          , loss=0.745 [00:08<19:45]")
            .map(|(n, t, e, _)| (n, t, e)),
        Some((7, 1000, 8.0))
    );
    assert!(
        parse_bar(b"Epoch [1/30]: [7/1000] [00:08<19:45]")
            .unwrap()
            .3
            .is_nan()
    );
    // 1.2 s a step for 500 steps, then 1.5 s.
    let mut text = String::new();
    let mut elapsed = 0.0;
    for n in 1..=1000u64 {
        elapsed += if n <= 500 { 1.2 } else { 1.5 };
        let e = elapsed as u64;
        text += &format!(
            "\rEpoch [1/30]: [{n}/1000]  50%|#####     , loss=0.5 [{:02}:{:02}<10:00]",
            e / 60,
            e % 60
        );
    }
    let log = read(&text);
    let early = log.samples.iter().find(|s| s.step > 200).unwrap();
    assert!((early.sec_per_step - 1.2).abs() < 0.05, "{early:?}");
    let late = log.samples.iter().find(|s| s.step > 700).unwrap();
    assert!((late.sec_per_step - 1.5).abs() < 0.05, "{late:?}");
}

#[test]
fn a_log_that_counts_only_epochs_is_paced_by_its_epochs() {
    // nnU-Net v2: "Epoch N" then "Epoch time: X s", 120 s an epoch, then 150 s.
    let mut text = String::new();
    let mut t = 8.0 * 3600.0;
    for n in 0..40u64 {
        let secs = if n < 20 { 120.0 } else { 150.0 };
        let stamp = |t: f64| {
            format!(
                "2026-11-29 {:02}:{:02}:{:02}.000000",
                (t / 3600.0) as u64,
                (t / 60.0) as u64 % 60,
                t as u64 % 60
            )
        };
        text += &format!("{}: \n{}: Epoch {n}\n", stamp(t), stamp(t));
        text += &format!("{}: train_loss -0.61\n", stamp(t + secs - 1.0));
        t += secs;
        text += &format!("{}: Epoch time: {secs:.2} s\n", stamp(t));
    }
    let log = read(&text);
    assert!(log.anchored);
    let early = log.samples.iter().find(|s| s.step >= 5).unwrap();
    assert!((early.sec_per_step - 120.0).abs() < 1.0, "{early:?}");
    let late = log.samples.iter().find(|s| s.step >= 30).unwrap();
    assert!((late.sec_per_step - 150.0).abs() < 1.0, "{late:?}");
}

#[test]
fn boosting_rounds_with_an_elapsed_count_or_a_journal_stamp() {
    use crate::extract::log_fields::text_fields;
    // LightGBM's CLI: the time since training began, then the iteration.
    let f = text_fields("[LightGBM] [Info] 2.356809 seconds elapsed, finished iteration 1");
    assert_eq!((f.step, f.elapsed), (Some(1), Some(2.356809)));
    // XGBoost's EvaluationMonitor, bare and under journald's prefix.
    assert_eq!(
        text_fields("[10]\ttrain-logloss:0.68718\tvalid-logloss:0.68720").step,
        Some(10)
    );
    let line =
        "2026-11-29T09:02:34.264089+0100 spark-01 python3[4187]: [10]\ttrain-logloss:0.68718";
    assert_eq!(text_fields(line).step, Some(10));
    // journald's short-iso-precise offset has no colon: the wall clock.
    let s = crate::extract::log_lines::find_stamp(line.as_bytes()).unwrap();
    assert!(s.zoned && !s.utc);
    // neuraloperator's epoch line and tinygrad's step line.
    let f = text_fields("[3] time=31.65, avg_loss=0.5623, train_err=17.9927");
    assert_eq!((f.step, f.duration), (Some(3), Some(31.65)));
    let f = text_fields(
        "   94 1189.41 ms run,    2.20 ms python,  12.72 ms fetch data, 1174.50 ms NV,  7.03 loss",
    );
    assert_eq!(f.step, Some(94));
    assert!((f.duration.unwrap() - 1.18941).abs() < 1e-9);
    // A pid in brackets is no round, and neither is a bracketed count
    // without the tab.
    assert_eq!(
        text_fields("spark-01 python3[4187]: loading /data/train.parquet").step,
        None
    );
    // 100 s per 1000 rounds of elapsed, then 125 s: paced by the elapsed count.
    let mut text = String::new();
    let mut e = 0.0;
    for n in 1..=3000u64 {
        e += if n <= 1500 { 0.1 } else { 0.125 };
        text += &format!(
            "[LightGBM] [Info] Iteration:{n}, valid_1 auc : 0.70\n[LightGBM] [Info] {e:.6} seconds elapsed, finished iteration {n}\n"
        );
    }
    let log = read(&text);
    let early = log.samples.iter().find(|s| s.step > 500).unwrap();
    assert!((early.sec_per_step - 0.1).abs() < 0.01, "{early:?}");
    let late = log.samples.iter().find(|s| s.step > 2500).unwrap();
    assert!((late.sec_per_step - 0.125).abs() < 0.01, "{late:?}");
}

#[test]
fn a_logger_table_under_a_wrappers_stamp_with_its_step_in_g_format() {
    use crate::extract::log_fields::text_fields;
    // improved-diffusion's logger (OpenAI's "%-8.3g") under kubectl's stamp.
    let f = text_fields("2026-11-29T08:02:13.795257622Z | step       | 1.23e+04 |");
    assert_eq!(f.step, Some(12300));
    assert_eq!(text_fields("| step | 0 |").step, Some(0));
    // Not a whole number, not a step.
    assert_eq!(text_fields("| step | 1.5 |").step, None);
    // A row whose first cell has more than a stamp is no stamped row.
    assert_eq!(
        text_fields("at 2026-11-29T08:02:13Z | step | 7 |").step,
        None
    );
}
