//! Memory the way a Spark spends it: the three numbers of every memory
//! paste, each phase's peak on a known configuration, and trainer presets
//! changing exactly what their row says.

use headroom::calc::budget::{Now, from_free, now};
use headroom::calc::defaults::{Choices, complete};
use headroom::calc::estimate::{Peak, estimate};
use headroom::calc::model_spec::from_catalog;
use headroom::calc::setup::Method;
use headroom::extract::free::{from_meminfo, parse_free};
use headroom::extract::meminfo::parse_meminfo;
use headroom::knowledge::Knowledge;

const GIB: f64 = 1_073_741_824.0;

fn shared(name: &str) -> String {
    std::fs::read_to_string(crate::support::repo().join("tests/fixtures").join(name)).unwrap()
}

/// Hundredths of a GB, rounded down, as the budget rounds.
fn centi(bytes: f64) -> u64 {
    (bytes / 1e7).floor() as u64
}

#[test]
fn every_memory_fixture_gives_available_free_now_and_page_cache() {
    let k = Knowledge::embedded();
    let reserve = 400; // 4 GB, knowledge/spark.md row 7
    for (file, available, free, cache) in [
        (
            "free-b-spark.txt",
            124_065_050_624.0,
            Some(90_922_250_240.0),
            Some(34_739_163_136.0),
        ),
        (
            "free-h-spark.txt",
            115.0 * GIB,
            Some(80.0 * GIB),
            Some(35.0 * GIB),
        ),
        (
            "free-h-spark-comma-locale.txt",
            114.0 * GIB,
            Some(100.0 * GIB),
            Some(15.0 * GIB),
        ),
        (
            "free-h-spark-vllm-high.txt",
            2.3 * GIB,
            Some(965.0 * 1024.0 * 1024.0),
            Some(2.6 * GIB),
        ),
    ] {
        let reading = parse_free(&shared(file)).unwrap();
        let b = from_free(&reading, k);
        assert_eq!(b.available_centi_gb, centi(available), "{file}");
        assert_eq!(
            b.free_now_centi_gb,
            free.map(|f| centi(f).saturating_sub(reserve)),
            "{file}"
        );
        assert_eq!(b.page_cache_centi_gb, cache.map(centi), "{file}");
    }
    // /proc/meminfo without MemFree: the budget, but no free-now figure.
    let m = parse_meminfo(&shared("meminfo-gb10-excerpt.txt")).unwrap();
    let b = from_free(&from_meminfo(&m), k);
    assert_eq!(b.available_centi_gb, centi(118_566_368.0 * 1024.0));
    assert_eq!(b.free_now_centi_gb, None);
    assert_eq!(now(100, &b), None);
}

#[test]
fn fits_now_after_a_flush_or_not_at_all() {
    let k = Knowledge::embedded();
    let b = from_free(&parse_free(&shared("free-h-spark.txt")).unwrap(), k);
    // Free now 80 GiB = 85.89 GB, less 4 GB = 81.89 GB; budget 119.48 GB.
    assert_eq!(now(8_189, &b), Some(Now::FitsNow));
    assert_eq!(now(8_190, &b), Some(Now::AfterFlush));
    assert_eq!(now(11_948, &b), Some(Now::AfterFlush));
    assert_eq!(now(11_949, &b), Some(Now::DoesNotFit));
}

fn plan_input(
    model: &str,
    method: Method,
    batch: u64,
    pack: u64,
    choices: Choices,
) -> headroom::calc::setup::PlanInput {
    let k = Knowledge::embedded();
    let choices = Choices {
        batch: Some(batch),
        pack: Some(pack),
        ..choices
    };
    complete(from_catalog(k.model(model).unwrap()), method, &choices).0
}

#[test]
fn each_phase_peak_on_a_known_configuration() {
    let k = Knowledge::embedded();
    // Llama 3.1 8B full fine-tune, bf16, AdamW, batch 1 × 2048, evaluating
    // at batch 8 and resuming from a checkpoint.
    let input = plan_input(
        "Llama 3.1 8B",
        Method::Full,
        1,
        2048,
        Choices {
            eval_batch: Some(8),
            resumes: Some(true),
            ..Choices::default()
        },
    );
    let est = estimate(&input, k);
    let c = |key: &str| est.centi(key);
    let resident = c("weights") + c("optimizer");
    let phase = |p: Peak| est.phases.iter().find(|(q, _, _)| *q == p).unwrap();
    // Evaluation: resident state + 8 × 2048 × 128,256 × 10 B = 21.02 GB of
    // forward logits + CUDA context + the trainer process.
    let (_, eval, applies) = phase(Peak::Eval);
    assert!(applies);
    assert_eq!(eval.centi_gb, resident + 2_102 + c("overhead") + c("host"));
    // Save: one 5 GB shard copied to host memory (the weights are 16.07 GB).
    let (_, save, applies) = phase(Peak::Save);
    assert!(applies);
    assert_eq!(save.centi_gb, resident + 500 + c("overhead") + c("host"));
    // Resume: the optimizer state twice.
    let (_, resume, applies) = phase(Peak::Resume);
    assert!(applies);
    assert_eq!(
        resume.centi_gb,
        resident + c("optimizer") + c("overhead") + c("host")
    );
    // The binding peak is the largest of the phases that apply.
    let largest = [
        est.step_centi_gb,
        est.load.centi_gb,
        eval.centi_gb,
        save.centi_gb,
        resume.centi_gb,
    ]
    .into_iter()
    .max()
    .unwrap();
    assert_eq!(est.total_centi_gb, largest);
    // Without evaluation or resume those phases are shown but do not bind.
    let plain = estimate(
        &plan_input("Llama 3.1 8B", Method::Full, 1, 2048, Choices::default()),
        k,
    );
    assert!(
        plain
            .phases
            .iter()
            .any(|(p, _, applies)| *p == Peak::Eval && !applies)
    );
    assert!(matches!(
        plain.binding,
        Peak::Step | Peak::Load | Peak::Save
    ));
}

#[test]
fn a_preset_changes_exactly_the_terms_its_row_says() {
    let k = Knowledge::embedded();
    let base = plan_input("Qwen2.5 7B", Method::Lora, 2, 2048, Choices::default());
    for preset in &k.frameworks {
        let with = plan_input(
            "Qwen2.5 7B",
            Method::Lora,
            2,
            2048,
            Choices {
                preset: Some(preset.clone()),
                ..Choices::default()
            },
        );
        assert_eq!(with.loss, preset.loss, "{}", preset.key);
        assert_eq!(
            with.grad_checkpointing, preset.checkpointing,
            "{}",
            preset.key
        );
        assert_eq!(with.precision, preset.precision, "{}", preset.key);
        assert_eq!(with.runtime.packed, preset.packed, "{}", preset.key);
        assert_eq!(with.runtime.eval_batch, preset.eval_batch, "{}", preset.key);
        // Nothing else moves: shapes, method, batch, packing, optimizer, LoRA.
        assert_eq!(
            (
                with.model.params,
                with.method,
                with.batch,
                with.pack,
                with.optimizer,
                with.lora_rank,
                &with.lora_targets,
                with.attention
            ),
            (
                base.model.params,
                base.method,
                base.batch,
                base.pack,
                base.optimizer,
                base.lora_rank,
                &base.lora_targets,
                base.attention
            ),
            "{}",
            preset.key
        );
        // The estimate changes only in the terms those settings drive.
        let (a, b) = (estimate(&base, k), estimate(&with, k));
        for key in [
            "weights",
            "adapter",
            "gradients",
            "optimizer",
            "overhead",
            "host",
        ] {
            if base.precision == with.precision {
                assert_eq!(a.centi(key), b.centi(key), "{} changed {key}", preset.key);
            }
        }
    }
}

#[test]
fn i_use_unsloth_in_the_chat_sets_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::Headroom::new(dir.path())
        .stdin("LoRA on Qwen2.5 7B, bf16, batch 2, packing 2048\n\nI use Unsloth\n\nfull plan\n")
        .run()
        .ok();
    assert!(out.stdout.contains("framework unsloth"), "{}", out.stdout);
    assert!(out.stdout.contains("unsloth's default"), "{}", out.stdout);
}

#[test]
fn the_loader_decides_what_loading_holds() {
    use headroom::calc::runtime::Loader;
    let k = Knowledge::embedded();
    let load = |loader, prequantized| {
        estimate(
            &plan_input(
                "Llama 3.1 70B",
                Method::Qlora,
                1,
                2048,
                Choices {
                    loader: Some(loader),
                    prequantized: Some(prequantized),
                    ..Choices::default()
                },
            ),
            k,
        )
        .load
    };
    let v4 = load(Loader::V4, false);
    let v5 = load(Loader::V5, false);
    let v5_pre = load(Loader::V5, true);
    // 4.x: weights + 2 × one 5 GB shard; 5.x: the whole 16-bit checkpoint
    // (141.1 GB) mapped; pre-quantized: the stored 4-bit weights instead.
    assert!(
        v4.formula.contains("2 × 5.00 GB = 10.00 GB"),
        "{}",
        v4.formula
    );
    assert!(
        v5.centi_gb > v4.centi_gb + 13_000,
        "{} vs {}",
        v5.centi_gb,
        v4.centi_gb
    );
    assert!(
        v5_pre.centi_gb < v5.centi_gb && v5_pre.formula.contains("as stored"),
        "{}",
        v5_pre.formula
    );
}

#[test]
fn packed_batches_hold_no_allocator_reserve() {
    let k = Knowledge::embedded();
    let padded = estimate(
        &plan_input("Qwen2.5 7B", Method::Lora, 2, 4096, Choices::default()),
        k,
    );
    let packed = estimate(
        &plan_input(
            "Qwen2.5 7B",
            Method::Lora,
            2,
            4096,
            Choices {
                packed: Some(true),
                ..Choices::default()
            },
        ),
        k,
    );
    assert!(padded.centi("reserve") > 0);
    assert_eq!(packed.centi("reserve"), 0);
    assert_eq!(
        padded.step_centi_gb - packed.step_centi_gb,
        padded.centi("reserve")
    );
    // In the chat and from a trainer config.
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::Headroom::new(dir.path())
        .stdin("LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096, packing=True\n\n/status\n")
        .run()
        .ok();
    assert!(out.stdout.contains("packed: on"), "{}", out.stdout);
}
