//! Invariants of the estimator, over many random set-ups: more work never
//! needs less memory, and checkpointing never needs more.

use headroom::calc::defaults::{Choices, complete};
use headroom::calc::estimate::estimate;
use headroom::calc::model_spec::{from_catalog, from_params};
use headroom::calc::setup::{Attention, Loss, Method, ModelSpec, PlanInput, Precision, Sharding};
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
    let defaults = Knobs {
        precision: Precision::Standard,
        attention: Attention::Sdpa,
        loss: Loss::Upcast,
        nodes: 1,
        sharding: Sharding::Ddp,
    };
    input_with(model, method, batch, pack, rank, ckpt, defaults)
}

/// The knobs that change the shape of the estimate, drawn at random.
#[derive(Debug, Clone, Copy)]
struct Knobs {
    precision: Precision,
    attention: Attention,
    loss: Loss,
    nodes: u64,
    sharding: Sharding,
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (
        prop_oneof![
            Just(Precision::Standard),
            Just(Precision::Pure),
            Just(Precision::Mixed)
        ],
        prop_oneof![Just(Attention::Sdpa), Just(Attention::Eager)],
        prop_oneof![Just(Loss::Upcast), Just(Loss::Native), Just(Loss::Fused)],
        1u64..4,
        prop_oneof![Just(Sharding::Ddp), Just(Sharding::Fsdp)],
    )
        .prop_map(|(precision, attention, loss, nodes, sharding)| Knobs {
            precision,
            attention,
            loss,
            nodes,
            sharding,
        })
}

fn input_with(
    model: ModelSpec,
    method: Method,
    batch: u64,
    pack: u64,
    rank: u64,
    ckpt: bool,
    k: Knobs,
) -> PlanInput {
    let choices = Choices {
        batch: Some(batch),
        pack: Some(pack),
        lora_rank: Some(rank),
        grad_checkpointing: Some(ckpt),
        precision: Some(k.precision),
        attention: Some(k.attention),
        loss: Some(k.loss),
        nodes: Some(k.nodes),
        sharding: Some(k.sharding),
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
        k in knobs(),
    ) {
        let base = input_with(model.clone(), m, batch, pack, rank, ckpt, k);
        prop_assert!(total(&input_with(model.clone(), m, batch + 1, pack, rank, ckpt, k)) >= total(&base));
        prop_assert!(total(&input_with(model.clone(), m, batch, pack * 2, rank, ckpt, k)) >= total(&base));
        prop_assert!(total(&input_with(model, m, batch, pack, rank * 2, ckpt, k)) >= total(&base));
    }

    #[test]
    fn checkpointing_never_raises_the_estimate(
        model in catalog_model(),
        m in method(),
        batch in 1u64..16,
        pack in 64u64..16384,
        k in knobs(),
    ) {
        let on = input_with(model.clone(), m, batch, pack, 16, true, k);
        let off = input_with(model, m, batch, pack, 16, false, k);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any turn, however odd, gets a reply and never a panic: parsers say
    /// what was wrong instead.
    #[test]
    fn any_turn_gets_a_reply(turns in proptest::collection::vec(
        prop_oneof![
            ".{0,80}",
            "(Mem:|total|USER|timestamp|Traceback|OOM|\\{|/)[ -~]{0,60}",
            "[0-9 ./:,-]{0,40}",
            Just("yes".to_string()),
            Just("no".to_string()),
            Just("I already halved the batch".to_string()),
        ],
        1..6,
    )) {
        let k = Knowledge::embedded();
        let now: jiff::Timestamp = "2026-11-29T10:00:00Z".parse().unwrap();
        let mut session = headroom::dialogue::session::Session::default();
        for t in &turns {
            let reply = headroom::dialogue::engine::respond(&mut session, t, now, k);
            prop_assert!(!headroom::render::reply::markdown(&reply).trim().is_empty(), "empty reply to {:?}", t);
        }
    }
}

mod questions_change_nothing {
    use headroom::dialogue::engine::respond;
    use headroom::dialogue::session::Session;
    use headroom::knowledge::Knowledge;
    use proptest::prelude::*;

    fn question() -> impl Strategy<Value = String> {
        let lead = prop::sample::select(vec![
            "should I switch to",
            "would it be faster with",
            "what if I used",
            "what about",
            "could I try",
            "is it better with",
        ]);
        let change = prop::sample::select(vec![
            "bf16 LoRA",
            "full fine-tune",
            "QLoRA",
            "batch 8",
            "packing 8192",
            "the 8-bit adam optimizer",
            "Llama 3.1 70B",
            "fp32",
            "rank 64",
            "no gradient checkpointing",
        ]);
        (lead, change).prop_map(|(l, c)| format!("{l} {c}?"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// A question or what-if, however it is worded, leaves every answer
        /// the owner gave as it was.
        #[test]
        fn a_question_never_changes_the_facts(q in question()) {
            let k = Knowledge::embedded();
            let at = jiff::Timestamp::UNIX_EPOCH;
            let mut s = Session::default();
            respond(&mut s, "QLoRA on Qwen2.5 7B, bf16, batch 2, packing 2048", at, k);
            let before = s.facts.clone();
            respond(&mut s, &q, at, k);
            prop_assert_eq!(&s.facts, &before, "{} changed the run", q);
        }
    }
}
