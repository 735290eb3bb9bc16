//! Invariants of the estimator, over many random set-ups: more work never
//! needs less memory, and checkpointing never needs more.

use headroom::calc::defaults::{Choices, complete};
use headroom::calc::estimate::estimate;
use headroom::calc::model_spec::{from_catalog, from_params};
use headroom::calc::setup::{Method, ModelSpec, PlanInput};
use headroom::knowledge::Knowledge;
use proptest::prelude::*;

fn input(
    model: ModelSpec,
    method: Method,
    batch: u64,
    pack: u64,
    rank: u64,
    ckpt: bool,
) -> PlanInput {
    let choices = Choices {
        batch: Some(batch),
        pack: Some(pack),
        lora_rank: Some(rank),
        grad_checkpointing: Some(ckpt),
        ..Choices::default()
    };
    complete(model, method, &choices).0
}

fn total(i: &PlanInput) -> u64 {
    estimate(i, Knowledge::embedded()).total_centi_gb
}

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![Just(Method::Full), Just(Method::Lora), Just(Method::Qlora)]
}

fn catalog_model() -> impl Strategy<Value = ModelSpec> {
    let n = Knowledge::embedded().models.len();
    (0..n).prop_map(|i| from_catalog(&Knowledge::embedded().models[i]))
}

proptest! {
    #[test]
    fn more_batch_packing_or_rank_never_lowers_the_estimate(
        model in catalog_model(),
        m in method(),
        batch in 1u64..16,
        pack in 64u64..16384,
        rank in 1u64..256,
        ckpt: bool,
    ) {
        let base = input(model.clone(), m, batch, pack, rank, ckpt);
        prop_assert!(total(&input(model.clone(), m, batch + 1, pack, rank, ckpt)) >= total(&base));
        prop_assert!(total(&input(model.clone(), m, batch, pack * 2, rank, ckpt)) >= total(&base));
        prop_assert!(total(&input(model, m, batch, pack, rank * 2, ckpt)) >= total(&base));
    }

    #[test]
    fn checkpointing_never_raises_the_estimate(
        model in catalog_model(),
        m in method(),
        batch in 1u64..16,
        pack in 64u64..16384,
    ) {
        let on = input(model.clone(), m, batch, pack, 16, true);
        let off = input(model, m, batch, pack, 16, false);
        prop_assert!(total(&on) <= total(&off));
    }

    #[test]
    fn a_larger_model_never_lowers_the_estimate(
        params in 500_000_000u64..400_000_000_000,
        extra in 1u64..50_000_000_000,
        m in method(),
        batch in 1u64..8,
        pack in 128u64..8192,
    ) {
        let k = Knowledge::embedded();
        let small = input(from_params(params, k), m, batch, pack, 16, true);
        let large = input(from_params(params + extra, k), m, batch, pack, 16, true);
        prop_assert!(total(&large) >= total(&small), "{} -> {}", params, params + extra);
    }
}
