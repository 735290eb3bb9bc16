//! The one-way data flow holds: the dialogue never formats (no imports of
//! `render`), and the shapes readers produce reach the calculators as types.

fn sources(dir: &str) -> Vec<(std::path::PathBuf, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&crate::support::repo().join(dir), &mut out);
    out
}

#[test]
fn the_dialogue_never_imports_render() {
    for (path, text) in sources("src/dialogue") {
        assert!(
            !text.contains("crate::render"),
            "{} reaches into render/: replies carry typed blocks, render/ formats them",
            path.display()
        );
    }
}

#[test]
fn every_reader_is_registered_once() {
    let registry =
        std::fs::read_to_string(crate::support::repo().join("src/extract/reading.rs")).unwrap();
    for (path, text) in sources("src/extract") {
        for line in text.lines() {
            if let Some(rest) = line
                .trim()
                .strip_prefix("impl crate::extract::reading::Reader for ")
                .or_else(|| line.trim().strip_prefix("impl Reader for "))
            {
                let name = rest.trim_end_matches(" {");
                assert_eq!(
                    registry.matches(&format!("::{name},")).count(),
                    1,
                    "{name} in {} is not registered exactly once in READERS",
                    path.display()
                );
            }
        }
    }
}
