//! Fuzzing with proptest (CI runs it for a fixed budget of cases): every
//! reader and the transcript loader get arbitrary bytes and mutated real
//! pastes, and must answer with a reading or a clear error, never a panic
//! or a hang. Crashes found here become named regression tests.

use headroom::extract::reading::{READERS, classify};
use headroom::knowledge::Knowledge;
use proptest::prelude::*;

/// Real pastes to mutate, so the fuzzer reaches deep into each reader.
const SEEDS: &[&str] = &[
    include_str!("../fixtures/free-h-spark.txt"),
    include_str!("../fixtures/free-b-spark.txt"),
    include_str!("../fixtures/meminfo-gb10-excerpt.txt"),
    include_str!("../fixtures/ps-aux-spark-mixed.txt"),
    include_str!("../fixtures/kernel-oom-kill.txt"),
    include_str!("../fixtures/hf-trainer-it-per-s.txt"),
    include_str!("../fixtures/torchtune-steps.txt"),
    include_str!("../fixtures/llama-3.1-8b-config.json"),
    include_str!("../fixtures/nvidia-smi-query-timestamp-loop.txt"),
    include_str!("../fixtures/nvidia-smi-table-gb10-vllm.txt"),
    include_str!("../fixtures/ollama-ps.txt"),
    include_str!("../fixtures/nvidia-smi-compute-apps-gb10.txt"),
    "model_name_or_path: Qwen/Qwen2.5-32B-Instruct\nfinetuning_type: lora\ncutoff_len: 2048\nper_device_train_batch_size: 1\n",
    "/home/owner/runs/sft-0412/thermal.log",
];

fn mutated() -> impl Strategy<Value = String> {
    (
        prop::sample::select(SEEDS),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
        prop::collection::vec(any::<u8>(), 0..64),
    )
        .prop_map(|(seed, edits, tail)| {
            let mut bytes = seed.as_bytes().to_vec();
            for (i, b) in edits {
                if !bytes.is_empty() {
                    let at = i.index(bytes.len());
                    bytes[at] = b;
                }
            }
            bytes.extend(tail);
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn every_reader_answers_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = classify(&text);
        for r in READERS {
            if r.claims(&text) {
                let _ = r.read(&text);
            }
        }
    }

    #[test]
    fn every_reader_answers_mutated_pastes(text in mutated()) {
        let _ = classify(&text);
        for r in READERS {
            // Each reader on every text, claimed or not: read() is total.
            let _ = r.read(&text);
        }
        let _ = headroom::extract::slots::extract(&text, Knowledge::embedded());
        let _ = headroom::extract::intent::sentences(&text);
        let _ = headroom::extract::when::date_time_in(&text, 2026);
        let _ = headroom::extract::thermal_csv::read_thermal(std::io::Cursor::new(text.as_bytes()));
        let _ = headroom::extract::train_log::read_train_log(std::io::Cursor::new(text.as_bytes()), None);
    }

    #[test]
    fn the_dialogue_answers_any_turn(text in mutated()) {
        let mut s = headroom::dialogue::session::Session::default();
        let at = jiff::Timestamp::UNIX_EPOCH;
        let k = Knowledge::embedded();
        let r = headroom::dialogue::engine::respond(&mut s, &text, at, k);
        prop_assert!(!headroom::render::reply::markdown(&r).trim().is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever is in the transcript, a start loads it or says why.
    #[test]
    fn the_transcript_loader_takes_any_bytes(
        good in prop::collection::vec(prop::sample::select(vec![
            r#"{"event":"owner","at":"2026-11-29T10:00:00Z","session":"s","text":"LoRA on Qwen2.5 7B"}"#,
            r#"{"event":"session_start","at":"2026-11-29T10:00:00Z","session":"s","version":"0.1.0"}"#,
            r#"{"event":"forget","at":"2026-11-29T10:00:00Z","session":"s","slot":"batch"}"#,
        ]), 0..5),
        junk in prop::collection::vec(any::<u8>(), 0..512),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = Vec::new();
        for line in good {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        bytes.extend(junk);
        std::fs::write(dir.path().join("transcript.jsonl"), &bytes).unwrap();
        let loaded = headroom::memory::transcript::load(dir.path());
        prop_assert!(loaded.is_ok(), "{:?}", loaded.err());
        let loaded = loaded.unwrap();
        let _ = headroom::memory::transcript::replay(&loaded.events, dir.path(), Knowledge::embedded());
        // A repaired file ends on a whole record.
        let after = std::fs::read(dir.path().join("transcript.jsonl")).unwrap();
        prop_assert!(after.is_empty() || after.ends_with(b"\n"));
    }
}

/// Found by `the_dialogue_answers_any_turn`: a damaged sample line with an
/// hour of 32 panicked inside the time conversion.
#[test]
fn regression_an_impossible_hour_in_a_thermal_paste_is_skipped() {
    let text = "$ nvidia-smi -i 0 --query-gpu=timestamp,power.draw,memory.used,utilization.gpu --format=csv -l 1\ntimestamp, power.draw [W], memory.used [MiB], utilization.gpu [%]\n2026/08/17 22:35:54.844, 44.94 W, 2163 MiB, 100 %\n2026/08/17 32:35:55.848, 45.06 W, 2163 MiB, 100 %\n";
    let mut s = headroom::dialogue::session::Session::default();
    let r = headroom::dialogue::engine::respond(
        &mut s,
        text,
        jiff::Timestamp::UNIX_EPOCH,
        Knowledge::embedded(),
    );
    assert!(!headroom::render::reply::markdown(&r).is_empty());
    assert_eq!(
        headroom::extract::thermal_csv::parse_time("2026/08/17 32:35:55.848"),
        None
    );
}
