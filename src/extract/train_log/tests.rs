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
