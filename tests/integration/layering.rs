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
fn calculators_never_import_readers() {
    for (path, text) in sources("src/calc") {
        // Unit tests may parse a fixture to build their input.
        let product = text.split("#[cfg(test)]").next().unwrap_or("");
        assert!(
            !product.contains("crate::extract"),
            "{} imports extract/: calculators take typed readings from readings/",
            path.display()
        );
    }
}

#[test]
fn every_reader_is_registered_once() {
    let registry =
        std::fs::read_to_string(crate::support::repo().join("src/extract/reading.rs")).unwrap();
    let mut found = 0;
    for (path, text) in sources("src/extract") {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, line) in lines.iter().enumerate() {
            // A reader is an `impl Reader for X`, or `paste_reader!(` whose
            // first line after the doc comment names it.
            let by_macro = if line.ends_with("paste_reader!(") {
                lines[i + 1..]
                    .iter()
                    .find(|l| !l.starts_with("///"))
                    .map(|l| l.trim_end_matches(','))
            } else {
                None
            };
            let by_impl = line
                .strip_prefix("impl crate::extract::reading::Reader for ")
                .or_else(|| line.strip_prefix("impl Reader for "))
                .map(|rest| rest.trim_end_matches(" {"));
            let Some(name) = by_macro.or(by_impl) else {
                continue;
            };
            if name.starts_with('$') {
                continue; // the macro's own definition
            }
            found += 1;
            assert_eq!(
                registry.matches(&format!("::{name},")).count(),
                1,
                "{name} in {} is not registered exactly once in READERS",
                path.display()
            );
        }
    }
    assert!(
        found >= 12,
        "only {found} readers found: the scan is broken"
    );
}
