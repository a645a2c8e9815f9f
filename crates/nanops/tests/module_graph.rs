//! The module graph of `nanops` and `nanops-py` has no import cycles.
//!
//! # The rule
//!
//! **No module imports one above it; facades re-export, children import
//! siblings directly.** A facade (`lib.rs`, a `mod.rs`) declares its children
//! and re-exports what they define (`pub use walk::Walker;`). A child never
//! reaches back up through a facade (`use super::Plan;`, `crate::Axes`) to get
//! something a sibling defines: it names the sibling that defines it
//! (`use super::plan::Plan;`, `crate::options::axes::Axes`). Code that several
//! children share lives in a child of its own, not in the facade. Then every
//! import points sideways or down, and the files form a DAG that can be read,
//! tested and moved bottom-up.
//!
//! # What is checked
//!
//! Each crate's `src/` is read separately. A *module* is a file: `lib.rs` is
//! `crate`, `a/mod.rs` is `crate::a`, `a/b.rs` is `crate::a::b`; inline modules
//! (`mod tests { .. }`, `pub(crate) mod sealed { .. }`, modules written in
//! `macro_rules!` bodies) are part of their file. File A → file B when A names
//! a path that resolves into B: `use` declarations (groups, globs, `as`) and
//! paths written in code or macros (`crate::x::f()`, `super::LANES`,
//! `$crate::m::mac!`, `<crate::x::Y as T>`), starting with `crate`, `$crate`,
//! `super`, `self`, or the name of a child module file (`pub use walk::X;` in
//! a facade). `super` first climbs out of the inline modules it is written in.
//! A path goes to the longest prefix that names a module file. Comments and
//! string literals are ignored, and so are `mod foo;` declarations and
//! references within one file. Any strongly connected component of more than
//! one file fails the test.
//!
//! # Reading a failure
//!
//! Each cycle is printed as its files, then every edge between them with the
//! lines that create it (`file:line: text`). Edges marked `[upward]` import a
//! module above the importing one (a parent facade or the crate root): those
//! break the rule, and pointing them at the sibling that defines the item
//! usually breaks the cycle. Otherwise, move the shared item into a module of
//! its own that both sides import. The second test (`checker_on_synthetic_trees`)
//! shows small examples of what counts as an edge and what does not.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// `text` with comments, string literals and char literals replaced by
/// spaces; newlines are kept, so line numbers stay valid.
fn strip_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let n = c.len();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, s: &[char]| {
        out.extend(s.iter().map(|&ch| if ch == '\n' { '\n' } else { ' ' }));
    };
    let mut i = 0;
    while i < n {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            let end = (i..n).find(|&j| c[j] == '\n').unwrap_or(n);
            blank(&mut out, &c[i..end]);
            i = end;
        } else if ch == '/' && next == Some('*') {
            // Block comments nest.
            let (mut depth, mut j) = (0usize, i);
            while j < n {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            let j = j.min(n);
            blank(&mut out, &c[i..j]);
            i = j;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            out.push_str(&word);
            // Raw strings: r"..", r#".."#, br"..", cr"..". (`r#name` is a raw
            // identifier: no quote after the hashes.)
            if matches!(word.as_str(), "r" | "br" | "cr") {
                let hashes = (i..n).take_while(|&j| c[j] == '#').count();
                if c.get(i + hashes) == Some(&'"') {
                    let mut k = i + hashes + 1;
                    while k < n {
                        if c[k] == '"' && (1..=hashes).all(|h| c.get(k + h) == Some(&'#')) {
                            k += 1 + hashes;
                            break;
                        }
                        k += 1;
                    }
                    let k = k.min(n);
                    blank(&mut out, &c[i..k]);
                    i = k;
                }
            }
        } else if ch == '"' {
            // Plain, byte and C strings (the prefix was copied as a word).
            let mut k = i + 1;
            while k < n {
                match c[k] {
                    '\\' => k += 2,
                    '"' => {
                        k += 1;
                        break;
                    }
                    _ => k += 1,
                }
            }
            let k = k.min(n);
            blank(&mut out, &c[i..k]);
            i = k;
        } else if ch == '\'' {
            if next == Some('\\') {
                // '\n', '\'', '\u{..}'
                let mut k = i + 3;
                while k < n && c[k] != '\'' {
                    k += 1;
                }
                let k = (k + 1).min(n);
                blank(&mut out, &c[i..k]);
                i = k;
            } else if c.get(i + 2) == Some(&'\'') {
                // 'a', '"', '{'
                blank(&mut out, &c[i..i + 3]);
                i += 3;
            } else {
                // A lifetime or a label: 'a, 'static, 'outer:
                out.push(ch);
                i += 1;
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

/// One token of stripped source, with its 1-based line.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    line: usize,
}

/// Words (identifiers, keywords, numbers, `$name`, raw identifiers without
/// their `r#`), `::`, and every other character on its own.
fn tokenize(stripped: &str) -> Vec<Tok> {
    let c: Vec<char> = stripped.chars().collect();
    let n = c.len();
    let is_word = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < n {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_word(ch) || (ch == '$' && c.get(i + 1).is_some_and(|&d| is_word(d))) {
            let start = i;
            i += 1;
            while i < n && is_word(c[i]) {
                i += 1;
            }
            let mut text: String = c[start..i].iter().collect();
            if text == "r" && c.get(i) == Some(&'#') && c.get(i + 1).is_some_and(|&d| is_word(d)) {
                let start = i + 1;
                i = start;
                while i < n && is_word(c[i]) {
                    i += 1;
                }
                text = c[start..i].iter().collect();
            }
            toks.push(Tok { text, line });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            toks.push(Tok {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            toks.push(Tok {
                text: ch.to_string(),
                line,
            });
            i += 1;
        }
    }
    toks
}

/// A word that can be a path segment (not a number, not punctuation).
fn is_segment(t: &Tok) -> bool {
    t.text
        .chars()
        .next()
        .is_some_and(|ch| ch.is_alphabetic() || ch == '_' || ch == '$')
}

/// The paths of a `use` tree: `toks` is what follows `use`, up to its `;`.
/// Globs give the path they glob from; `self` in a group gives the group's
/// prefix; `as` renames are dropped. Paths starting with `::` are external.
fn use_tree(toks: &[Tok], pos: &mut usize, prefix: &mut Vec<Tok>, out: &mut Vec<Vec<Tok>>) {
    let base = prefix.len();
    if prefix.is_empty() && toks.get(*pos).is_some_and(|t| t.text == "::") {
        *pos += 1;
        use_tree(toks, pos, prefix, &mut Vec::new());
        return;
    }
    while let Some(t) = toks.get(*pos) {
        match t.text.as_str() {
            "*" => {
                *pos += 1;
                out.push(prefix.clone());
                break;
            }
            "{" => {
                *pos += 1;
                while let Some(t) = toks.get(*pos) {
                    match t.text.as_str() {
                        "}" => {
                            *pos += 1;
                            break;
                        }
                        "," => *pos += 1,
                        _ => {
                            let before = *pos;
                            use_tree(toks, pos, prefix, out);
                            if *pos == before {
                                *pos += 1;
                            }
                        }
                    }
                }
                break;
            }
            _ if is_segment(t) => {
                // `self` after a prefix (in a group) stands for the prefix.
                if t.text != "self" || prefix.is_empty() {
                    prefix.push(t.clone());
                }
                *pos += 1;
                if toks.get(*pos).is_some_and(|t| t.text == "::") {
                    *pos += 1;
                    continue;
                }
                if toks.get(*pos).is_some_and(|t| t.text == "as") {
                    *pos += 2;
                }
                out.push(prefix.clone());
                break;
            }
            _ => break,
        }
    }
    prefix.truncate(base);
}

/// A path found in a file: its segments and the module it was written in
/// (the file's module, then any inline modules around it).
struct PathRef {
    scope: Vec<String>,
    segs: Vec<Tok>,
}

/// Every path a file names, in `use` declarations and in code.
fn paths_in(file_module: &[String], text: &str) -> Vec<PathRef> {
    let toks = tokenize(&strip_comments_and_literals(text));
    let text_at = |i: usize| toks.get(i).map_or("", |t: &Tok| t.text.as_str());
    let mut refs = Vec::new();
    // Inline modules open around the current token: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let scope = |inline: &[(String, usize)]| {
        let mut s = file_module.to_vec();
        s.extend(inline.iter().map(|(name, _)| name.clone()));
        s
    };
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t.text.as_str() {
            "{" => {
                depth += 1;
                i += 1;
            }
            "}" => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            "mod" if toks.get(i + 1).is_some_and(is_segment) && text_at(i + 2) == "{" => {
                depth += 1;
                inline.push((toks[i + 1].text.clone(), depth));
                i += 3;
            }
            // `use<..>` is precise capturing, not a declaration.
            "use" if text_at(i + 1) != "<" => {
                // The declaration runs to its `;` (braces balanced).
                let mut end = i + 1;
                let mut level = 0usize;
                while end < toks.len() {
                    match toks[end].text.as_str() {
                        "{" => level += 1,
                        "}" if level == 0 => break,
                        "}" => level -= 1,
                        ";" if level == 0 => break,
                        _ => {}
                    }
                    end += 1;
                }
                let body = &toks[i + 1..end];
                let (mut pos, mut found) = (0, Vec::new());
                while pos < body.len() {
                    let before = pos;
                    use_tree(body, &mut pos, &mut Vec::new(), &mut found);
                    pos = pos.max(before + 1);
                }
                let s = scope(&inline);
                refs.extend(found.into_iter().map(|segs| PathRef {
                    scope: s.clone(),
                    segs,
                }));
                i = end;
            }
            "::" => {
                // A global path (`::std::x`): skip it whole.
                i += 1;
                while toks.get(i).is_some_and(is_segment) && text_at(i + 1) == "::" {
                    i += 2;
                }
                i += 1;
            }
            _ if is_segment(t)
                && text_at(i + 1) == "::"
                && toks.get(i + 2).is_some_and(is_segment) =>
            {
                let mut segs = vec![t.clone()];
                i += 1;
                while text_at(i) == "::" && toks.get(i + 1).is_some_and(is_segment) {
                    segs.push(toks[i + 1].clone());
                    i += 2;
                }
                refs.push(PathRef {
                    scope: scope(&inline),
                    segs,
                });
            }
            _ => i += 1,
        }
    }
    refs
}

/// The module a file is: `lib.rs` → `[]`, `a/mod.rs` → `[a]`, `a/b.rs` →
/// `[a, b]` (`rel` is relative to `src/`, with `/` separators).
fn module_of(rel: &str) -> Option<Vec<String>> {
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    let file = parts.pop()?;
    let stem = file.strip_suffix(".rs")?;
    match stem {
        "mod" => {}
        "lib" if parts.is_empty() => {}
        _ => parts.push(stem.to_owned()),
    }
    Some(parts)
}

/// The file a path resolves into and the line of the segment that picks it
/// (`None` for external crates' paths and for paths climbing above `crate`).
fn resolve(modules: &HashMap<Vec<String>, usize>, r: &PathRef) -> Option<(usize, usize)> {
    let segs = &r.segs;
    let first = segs.first()?;
    let (mut full, mut i) = match first.text.as_str() {
        "crate" | "$crate" => (Vec::new(), 1),
        "self" => (r.scope.clone(), 1),
        "super" => (r.scope.clone(), 0),
        t if t.starts_with('$') => return None,
        // A bare path: an item or a child module of the current scope, or
        // an external crate (which resolves to the current file: no edge).
        _ => (r.scope.clone(), 0),
    };
    while segs.get(i).is_some_and(|t| t.text == "super") {
        full.pop()?;
        i += 1;
    }
    let anchor = full.len();
    let anchor_line = segs[i.saturating_sub(1)].line;
    full.extend(
        segs[i..]
            .iter()
            .take_while(|t| !t.text.starts_with('$'))
            .map(|t| t.text.clone()),
    );
    (0..=full.len()).rev().find_map(|k| {
        let file = *modules.get(&full[..k])?;
        let line = if k > anchor {
            segs[i + (k - anchor) - 1].line
        } else {
            anchor_line
        };
        Some((file, line))
    })
}

/// A module file: its path relative to `src/`, its module path, its text.
struct File {
    rel: String,
    module: Vec<String>,
    text: String,
}

/// The file graph of one crate.
struct Graph {
    /// Sorted by `rel`.
    files: Vec<File>,
    /// (from, to) → lines in `from` that name `to`.
    edges: BTreeMap<(usize, usize), BTreeSet<usize>>,
}

impl Graph {
    /// `files`: (path relative to `src/`, text) for every `.rs` file.
    fn new(files: &[(String, String)]) -> Graph {
        let mut files: Vec<File> = files
            .iter()
            .filter_map(|(rel, text)| {
                let module = module_of(rel)?;
                let (rel, text) = (rel.clone(), text.clone());
                Some(File { rel, module, text })
            })
            .collect();
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        let index: HashMap<Vec<String>, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        let mut edges: BTreeMap<(usize, usize), BTreeSet<usize>> = BTreeMap::new();
        for (from, file) in files.iter().enumerate() {
            for r in paths_in(&file.module, &file.text) {
                if let Some((to, line)) = resolve(&index, &r)
                    && to != from
                {
                    edges.entry((from, to)).or_default().insert(line);
                }
            }
        }
        Graph { files, edges }
    }

    /// The lines of `from` that name `to`, by relative paths.
    fn edge(&self, from: &str, to: &str) -> Option<Vec<usize>> {
        let f = self.files.iter().position(|x| x.rel == from)?;
        let t = self.files.iter().position(|x| x.rel == to)?;
        Some(self.edges.get(&(f, t))?.iter().copied().collect())
    }

    /// Strongly connected components of more than one file (Tarjan), each
    /// sorted, in file order.
    fn cycles(&self) -> Vec<Vec<usize>> {
        struct Tarjan<'g> {
            adj: &'g [Vec<usize>],
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on_stack: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<Vec<usize>>,
        }
        impl Tarjan<'_> {
            fn visit(&mut self, v: usize) {
                self.index[v] = Some(self.next);
                self.low[v] = self.next;
                self.next += 1;
                self.stack.push(v);
                self.on_stack[v] = true;
                let adj = self.adj;
                for &w in &adj[v] {
                    match self.index[w] {
                        None => {
                            self.visit(w);
                            self.low[v] = self.low[v].min(self.low[w]);
                        }
                        Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                        Some(_) => {}
                    }
                }
                if Some(self.low[v]) == self.index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = self.stack.pop() {
                        self.on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        component.sort_unstable();
                        self.out.push(component);
                    }
                }
            }
        }
        let n = self.files.len();
        let mut adj = vec![Vec::new(); n];
        for &(from, to) in self.edges.keys() {
            adj[from].push(to);
        }
        let mut t = Tarjan {
            adj: &adj,
            index: vec![None; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            next: 0,
            out: Vec::new(),
        };
        for v in 0..n {
            if t.index[v].is_none() {
                t.visit(v);
            }
        }
        t.out.sort();
        t.out
    }

    /// The cycles as relative paths, for tests.
    fn cycle_files(&self) -> Vec<Vec<&str>> {
        self.cycles()
            .iter()
            .map(|c| c.iter().map(|&f| self.files[f].rel.as_str()).collect())
            .collect()
    }

    /// Every cycle with its edges and their lines, or `None` without cycles.
    /// `label` is the `src/` folder as it should be printed.
    fn report(&self, label: &str) -> Option<String> {
        let cycles = self.cycles();
        if cycles.is_empty() {
            return None;
        }
        let mut s = String::new();
        for (k, component) in cycles.iter().enumerate() {
            let (k, total, size) = (k + 1, cycles.len(), component.len());
            writeln!(s, "\n{label}: cycle {k} of {total}, {size} files:").unwrap();
            for &f in component {
                writeln!(s, "    {}", self.files[f].rel).unwrap();
            }
            for (&(from, to), lines) in &self.edges {
                if !(component.contains(&from) && component.contains(&to)) {
                    continue;
                }
                let (from, to) = (&self.files[from], &self.files[to]);
                let upward = from.module.starts_with(&to.module);
                let mark = if upward { "  [upward]" } else { "" };
                writeln!(s, "  {} -> {}{mark}", from.rel, to.rel).unwrap();
                let source: Vec<&str> = from.text.lines().collect();
                for &line in lines {
                    let text = source.get(line - 1).map_or("", |l| l.trim());
                    writeln!(s, "      {label}/{}:{line}: {text}", from.rel).unwrap();
                }
            }
        }
        Some(s)
    }
}

/// Every `.rs` file under `dir`: (path relative to `root`, with `/`, text).
fn read_tree(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_tree(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap();
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            out.push((rel.join("/"), text));
        }
    }
}

#[test]
fn no_import_cycles_between_modules() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = String::new();
    let mut cycles = 0;
    for krate in [core.to_path_buf(), core.join("../nanops-py")] {
        let name = krate.file_name().unwrap().to_string_lossy().into_owned();
        let src = krate.join("src");
        assert!(src.is_dir(), "{} is missing", src.display());
        let mut files = Vec::new();
        read_tree(&src, &src, &mut files);
        assert!(
            files.iter().any(|(rel, _)| rel == "lib.rs"),
            "{} has no lib.rs",
            src.display()
        );
        let graph = Graph::new(&files);
        if let Some(report) = graph.report(&format!("crates/{name}/src")) {
            cycles += graph.cycles().len();
            failures += &report;
        }
    }
    assert!(
        failures.is_empty(),
        "{cycles} import cycle(s) between modules. Each is listed with its files, then \
         every import inside it with the lines that make it; [upward] marks an import of a \
         module above the importing one (a parent facade or the crate root), which the rule \
         forbids: import the item from the sibling that defines it instead. See the top of \
         crates/nanops/tests/module_graph.rs.\n{failures}"
    );
}

#[test]
fn checker_on_synthetic_trees() {
    let tree = |files: &[(&str, &str)]| {
        let files: Vec<(String, String)> = files
            .iter()
            .map(|&(p, t)| (p.to_owned(), t.to_owned()))
            .collect();
        Graph::new(&files)
    };

    // Module paths of files.
    assert_eq!(module_of("lib.rs"), Some(vec![]));
    assert_eq!(module_of("a/mod.rs"), Some(vec!["a".to_owned()]));
    assert_eq!(
        module_of("a/b.rs"),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
    assert_eq!(module_of("a/b.py"), None);

    // Two siblings importing each other through `use super::x`; `mod x;` is no edge.
    let g = tree(&[
        ("lib.rs", "mod a;\n"),
        ("a/mod.rs", "mod x;\nmod y;\n"),
        ("a/x.rs", "use super::y::Y;\npub struct X;\n"),
        (
            "a/y.rs",
            "pub struct Y;\n\nfn f() -> super::x::X { super::x::X }\n",
        ),
    ]);
    assert_eq!(g.cycle_files(), vec![vec!["a/x.rs", "a/y.rs"]]);
    assert_eq!(g.edge("a/x.rs", "a/y.rs"), Some(vec![1]));
    assert_eq!(g.edge("a/y.rs", "a/x.rs"), Some(vec![3]));
    assert_eq!(g.edge("lib.rs", "a/mod.rs"), None);
    assert_eq!(g.edge("a/mod.rs", "a/x.rs"), None);
    let report = g.report("src").unwrap();
    assert!(report.contains("src: cycle 1 of 1, 2 files:"), "{report}");
    assert!(report.contains("  a/x.rs -> a/y.rs\n"), "{report}");
    assert!(
        report.contains("src/a/x.rs:1: use super::y::Y;"),
        "{report}"
    );
    assert!(
        report.contains("src/a/y.rs:3: fn f() -> super::x::X { super::x::X }"),
        "{report}"
    );

    // A facade re-exporting its child, and the child importing the facade: a
    // cycle, marked [upward]. `self::` and bare child names both resolve.
    let g = tree(&[
        ("lib.rs", "pub use a::Walker;\nmod a;\n"),
        (
            "a/mod.rs",
            "mod walk;\npub use walk::Walker;\npub struct Plan;\n",
        ),
        ("a/walk.rs", "use super::Plan;\npub struct Walker;\n"),
        ("b.rs", "use self::c::C;\nmod c;\n"),
        ("b/c.rs", "pub struct C;\n"),
    ]);
    assert_eq!(g.cycle_files(), vec![vec!["a/mod.rs", "a/walk.rs"]]);
    assert_eq!(g.edge("lib.rs", "a/mod.rs"), Some(vec![1]));
    assert_eq!(g.edge("b.rs", "b/c.rs"), Some(vec![1]));
    let report = g.report("src").unwrap();
    assert!(
        report.contains("a/walk.rs -> a/mod.rs  [upward]"),
        "{report}"
    );
    assert!(
        !report.contains("a/mod.rs -> a/walk.rs  [upward]"),
        "{report}"
    );

    // `use super::*` in an inline `mod tests` is the file itself: no false
    // alarm. `super::super` from there is the file's parent; nested inline
    // modules (also from `macro_rules!`) climb out one by one.
    let g = tree(&[
        ("lib.rs", "mod a;\npub use a::z::Z;\n"),
        ("a/mod.rs", "mod w;\npub mod z;\npub use z::Z;\n"),
        ("a/w.rs", "pub struct W;\n"),
        (
            "a/z.rs",
            "pub struct Z;\n\
             #[cfg(test)]\n\
             mod tests {\n\
                 use super::*;\n\
                 fn f() -> super::super::w::W { let _ = super::Z; super::super::w::W }\n\
             }\n\
             macro_rules! m {\n\
                 ($module:ident) => {\n\
                     pub(crate) mod $module {\n\
                         pub(crate) mod inner { use super::super::Z; }\n\
                         fn g() { super::Z; $crate::a::w::W; }\n\
                     }\n\
                 };\n\
             }\n\
             pub(crate) mod sealed { pub trait Sealed {} }\n\
             fn h() { self::sealed::Sealed; }\n",
        ),
    ]);
    assert_eq!(g.cycle_files(), Vec::<Vec<&str>>::new());
    assert_eq!(g.edge("a/z.rs", "a/mod.rs"), None);
    assert_eq!(g.edge("a/z.rs", "a/w.rs"), Some(vec![5, 11]));
    assert_eq!(g.edge("a/mod.rs", "a/z.rs"), Some(vec![3]));
    assert_eq!(g.edge("lib.rs", "a/z.rs"), Some(vec![2]));
    assert!(g.report("src").is_none());

    // Paths in comments, strings, raw strings and doc links are not edges; a
    // char literal '"' or '{' does not open a string or a block, and
    // lifetimes are not char literals.
    let g = tree(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "//! See [`crate::b::B`].\n\
             // use crate::b::B;\n\
             /* crate::b::B /* nested */ super::b::B */\n\
             /// [`super::b`]\n\
             const S: &str = \"crate::b::B \\\" super::b\";\n\
             const R: &str = r#\"crate::b::B \" super::b\"#;\n\
             const Q: char = '\"';\n\
             const O: char = '{';\n\
             const E: char = '\\'';\n\
             fn f<'a>(x: &'a str) -> &'a str { 'outer: loop { break 'outer x; } }\n\
             pub struct A;\n",
        ),
        ("b.rs", "pub struct B;\n"),
    ]);
    assert_eq!(g.edge("a.rs", "b.rs"), None);
    // The same file plus one real path after all of that: found, on its line.
    let mut text = g
        .files
        .iter()
        .find(|f| f.rel == "a.rs")
        .unwrap()
        .text
        .clone();
    text += "fn g() -> crate::b::B { crate::b::B }\n";
    let g = tree(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", &text),
        ("b.rs", "pub struct B;\n"),
    ]);
    assert_eq!(g.edge("a.rs", "b.rs"), Some(vec![12]));

    // Nested `use` groups, renames, globs, `self` in groups, and paths in
    // code: the longest prefix naming a file wins; the rest are items.
    let g = tree(&[
        (
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\npub struct Report;\n",
        ),
        (
            "user.rs",
            "use crate::{\n    a::{x::X, y as why},\n    b::*,\n};\n\
             use crate::c::{self, deep::Item};\n\
             use ::std::fmt;\n\
             use std::io;\n\
             fn f() {\n    crate::d::f(1);\n    <crate::e::E as Default>::default();\n}\n\
             fn g() -> crate::Report { todo!() }\n\
             fn k() -> impl Sized + use<> { crate::d::f(2) }\n",
        ),
        ("a/mod.rs", "mod x;\nmod y;\n"),
        ("a/x.rs", "pub struct X;\n"),
        ("a/y.rs", ""),
        ("b.rs", ""),
        ("c.rs", "pub mod deep { pub struct Item; }\n"),
        ("d.rs", "pub fn f(_: u8) {}\n"),
        ("e.rs", "#[derive(Default)] pub struct E;\n"),
    ]);
    assert_eq!(g.edge("user.rs", "a/x.rs"), Some(vec![2]));
    assert_eq!(g.edge("user.rs", "a/y.rs"), Some(vec![2]));
    assert_eq!(g.edge("user.rs", "a/mod.rs"), None);
    assert_eq!(g.edge("user.rs", "b.rs"), Some(vec![3]));
    assert_eq!(g.edge("user.rs", "c.rs"), Some(vec![5]));
    assert_eq!(g.edge("user.rs", "d.rs"), Some(vec![9, 13]));
    assert_eq!(g.edge("user.rs", "e.rs"), Some(vec![10]));
    assert_eq!(g.edge("user.rs", "lib.rs"), Some(vec![12]));

    // `$crate::` in a macro and re-exports in the file itself are no edges;
    // a macro used from a sibling is.
    let g = tree(&[
        ("lib.rs", "mod dispatch;\nmod order;\npub use order::median;\n"),
        (
            "dispatch.rs",
            "macro_rules! dispatch {\n    ($x:expr) => { $crate::dispatch::dispatch!(@go $x) };\n}\n\
             pub(crate) use dispatch;\n",
        ),
        (
            "order.rs",
            "use crate::dispatch::dispatch;\npub fn median() { crate::dispatch::dispatch!(1) }\n",
        ),
    ]);
    assert_eq!(g.edge("order.rs", "dispatch.rs"), Some(vec![1, 2]));
    assert!(g
        .edges
        .keys()
        .all(|&(from, _)| g.files[from].rel != "dispatch.rs"));
    assert_eq!(g.cycle_files(), Vec::<Vec<&str>>::new());

    // A three-file cycle through the crate root: `crate::Marker` is lib.rs.
    let g = tree(&[
        (
            "lib.rs",
            "mod dispatch;\nmod order;\npub use order::median;\npub struct Marker;\n",
        ),
        (
            "dispatch.rs",
            "pub(crate) fn numpy() -> crate::Marker { crate::Marker }\n",
        ),
        (
            "order.rs",
            "use crate::dispatch::numpy;\npub fn median() {}\n",
        ),
    ]);
    assert_eq!(
        g.cycle_files(),
        vec![vec!["dispatch.rs", "lib.rs", "order.rs"]]
    );
}
