//! What neither Node 20 nor oxc's transformer runs, lowered by editing the
//! TypeScript source before it is transpiled: standard (TypeScript 5)
//! decorators and `accessor` fields. (`using` declarations and the
//! experimentalDecorators form are lowered by the transformer itself.)
//!
//! Editing the source keeps every line where it was: each edit keeps the
//! newlines it replaces, so the source map still points at the learner's
//! lines (columns move only on an edited line). Decorators become calls
//! to `babelHelpers` (drivers/typescript_runtime.js) from static blocks
//! the edits insert into the class:
//!
//! ```text
//! @sealed class C {            class C {static{babelHelpers.decoratorsBegin(this,"c0")}
//!   @logged m() {}               static{babelHelpers.decoratorsClass(this,"c0",(sealed))}#__decorators=...;
//!   @init x = 1;         =>      ;static{babelHelpers.decoratorsMember(this,"c0",{...},logged)} m() {}
//! }                              ;static{...(init)} x = babelHelpers.decoratorsInit(this,this.#__decorators,"i:field:x",(1));#__decorators_extra_0=...;
//!                              ;static{babelHelpers.decoratorsApply(this,"c0")}};C=babelHelpers.decoratorsDone(C,"c0");
//! ```
//!
//! Static blocks run in order when the class is defined, after its methods
//! exist and with the class as `this`, which is what applying a decorator
//! needs; decorators are applied in the order TypeScript applies them
//! (static methods and accessors, instance ones, static fields, instance
//! fields, each innermost first, then the class). Each definition of a
//! class keeps its own state: instances reach it through `#__decorators`.

use oxc::ast::ast::{
    Class, ClassElement, ClassType, Decorator, MethodDefinition, MethodDefinitionKind,
    MethodDefinitionType, Program, PropertyDefinition, PropertyDefinitionType, PropertyKey,
};
use oxc::ast_visit::Visit;
use oxc::span::GetSpan;

mod accessor;
mod visit;

use visit::OuterScope;

/// Which decorators a file's decorators are: TypeScript decides by the
/// `experimentalDecorators` option of its tsconfig.json.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decorators {
    /// TypeScript 5's default: the TC39 proposal.
    Standard,
    /// `experimentalDecorators`, with `emitDecoratorMetadata` or not.
    Experimental { metadata: bool },
}

/// A construct of the learner's that cannot be run, at a byte offset of
/// the source.
#[derive(Debug)]
pub struct Refusal {
    pub offset: u32,
    pub message: String,
}

/// The source with decorators (in the standard form) and `accessor` fields
/// lowered, `None` when it has neither, or the first construct that cannot
/// be lowered.
pub fn lower(
    program: &Program<'_>,
    source: &str,
    decorators: Decorators,
) -> Result<Option<String>, Refusal> {
    let mut lowering = Lowering {
        source,
        decorators,
        edits: Vec::new(),
        refusal: None,
        classes: 0,
        storages: 0,
        extras: 0,
        names: Vec::new(),
    };
    lowering.visit_program(program);
    if let Some(refusal) = lowering.refusal {
        return Err(refusal);
    }
    if lowering.edits.is_empty() {
        return Ok(None);
    }
    Ok(Some(apply(source, lowering.edits)))
}

/// Replaces `start..end` of the source with `text`.
#[derive(Debug)]
struct Edit {
    start: u32,
    end: u32,
    text: String,
}

/// The source with `edits` made. Edits never overlap (each touches its own
/// tokens); insertions at one offset keep the order they were made in.
fn apply(source: &str, mut edits: Vec<Edit>) -> String {
    // At one offset, insertions go before a replacement that starts there.
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(source.len() + 64 * edits.len());
    let mut at = 0usize;
    for edit in edits {
        let (start, end) = (edit.start as usize, edit.end as usize);
        debug_assert!(start >= at, "overlapping edits at {start}");
        out.push_str(&source[at..start.max(at)]);
        out.push_str(&edit.text);
        at = end.max(at);
    }
    out.push_str(&source[at..]);
    out
}

struct Lowering<'s> {
    source: &'s str,
    decorators: Decorators,
    edits: Vec<Edit>,
    refusal: Option<Refusal>,
    /// Classes with decorators so far: each gets an id for the runtime.
    classes: usize,
    /// `accessor` fields so far: each gets a private storage field.
    storages: usize,
    /// Decorated instance fields so far: each gets a private field after
    /// it that runs its decorators' added initializers.
    extras: usize,
    /// The names anonymous class expressions get from where they stand
    /// (`const X = class {}`), by the class's offset: a class decorator
    /// wraps the class in a call, which would lose the name.
    names: Vec<(u32, String)>,
}

/// How a decorated member is described to the runtime.
struct Member {
    /// Unique in its class: static or not, kind and name.
    key: String,
    kind: &'static str,
    name: String,
    is_static: bool,
    /// For a private field, the closures that reach it (the runtime cannot
    /// name it).
    private_access: Option<String>,
}

impl Member {
    fn literal(&self) -> String {
        let access = self
            .private_access
            .as_ref()
            .map(|a| format!(",access:{a}"))
            .unwrap_or_default();
        format!(
            "{{key:{},kind:\"{}\",name:{},static:{},private:{}{access}}}",
            json(&self.key),
            self.kind,
            json(&self.name),
            self.is_static,
            self.private_access.is_some(),
        )
    }
}

fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

/// The newlines of `text`, so that a replacement keeps the line count.
fn newlines(text: &str) -> String {
    "\n".repeat(text.matches('\n').count())
}

impl<'s> Lowering<'s> {
    fn refuse(&mut self, offset: u32, message: impl Into<String>) {
        if self.refusal.as_ref().is_none_or(|r| offset < r.offset) {
            self.refusal = Some(Refusal {
                offset,
                message: message.into(),
            });
        }
    }

    fn text(&self, start: u32, end: u32) -> &'s str {
        &self.source[start as usize..end as usize]
    }

    fn insert(&mut self, at: u32, text: String) {
        self.edits.push(Edit {
            start: at,
            end: at,
            text,
        });
    }

    /// Replaces `start..end` with `text` and the newlines it held.
    fn replace(&mut self, start: u32, end: u32, text: &str) {
        let text = format!("{text}{}", newlines(self.text(start, end)));
        self.edits.push(Edit { start, end, text });
    }

    /// The offset of the `class` keyword of `class`, searched from `from`.
    fn class_keyword(&self, class: &Class<'_>, from: u32) -> Option<u32> {
        let text = self.text(from, class.body.span.start);
        let bytes = text.as_bytes();
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        text.match_indices("class").map(|(i, _)| i).find_map(|i| {
            let before = i.checked_sub(1).map(|j| bytes[j]);
            let after = bytes.get(i + 5).copied();
            (!before.is_some_and(ident) && !after.is_some_and(ident)).then_some(from + i as u32)
        })
    }

    /// Refuses decorator `d` when its expression uses what means something
    /// else (or nothing) in the static block it is evaluated in.
    fn check_scope(&mut self, d: &Decorator<'_>) {
        let mut scope = OuterScope::default();
        scope.visit_expression(&d.expression);
        if let Some((at, what)) = scope.first {
            self.refuse(
                at,
                format!(
                    "a decorator that uses {what} is not supported: compute the decorator into \
                     a variable before the class and decorate with that"
                ),
            );
        }
    }

    /// Wraps decorator `d` of `member` in a static block that hands it to
    /// the runtime.
    fn member_decorator(&mut self, id: &str, d: &Decorator<'_>, member: &Member) {
        self.check_scope(d);
        // `@` becomes the call's start; the expression stays where it is.
        self.edits.push(Edit {
            start: d.span.start,
            end: d.span.start + 1,
            text: format!(
                ";static{{babelHelpers.decoratorsMember(this,\"{id}\",{},(",
                member.literal()
            ),
        });
        self.insert(d.span.end, "))}".into());
    }

    /// Routes the initial value of a decorated instance field (or of an
    /// accessor's storage) through its decorators' initializers, and runs
    /// the initializers they added once the field is defined. `key_end` is
    /// where the field's name ends; `definite` is set for `x!: T`, whose
    /// `!` cannot stand with an initial value.
    fn wrap_initializer(
        &mut self,
        key: &str,
        value: Option<oxc::span::Span>,
        key_end: u32,
        definite: bool,
        element_end: u32,
    ) {
        let call = format!(
            "babelHelpers.decoratorsInit(this,this.#__decorators,{},",
            json(key)
        );
        match value {
            Some(span) => {
                self.insert(span.start, format!("{call}("));
                self.insert(span.end, "))".into());
            }
            None => {
                if let (true, Some(bang)) = (definite, self.text(key_end, element_end).find('!')) {
                    let bang = key_end + bang as u32;
                    self.replace(bang, bang + 1, "");
                }
                // After the name and type: the element's text without its `;`.
                let text = self.text(0, element_end);
                let end = text.trim_end().trim_end_matches(';').trim_end().len() as u32;
                self.insert(end, format!(" = {call}undefined)"));
            }
        }
        let extra = self.extras;
        self.extras += 1;
        self.insert(
            element_end,
            format!(
                ";#__decorators_extra_{extra}=babelHelpers.decoratorsExtra(this,this.#__decorators,{});",
                json(key)
            ),
        );
    }

    fn lower_class(&mut self, class: &Class<'_>) {
        let elements = &class.body.body;
        let decorated_elements = elements.iter().any(|e| !element_decorators(e).is_empty());
        let class_name = class.id.as_ref().map(|id| id.name.as_str());
        if let Decorators::Experimental { .. } = self.decorators {
            // The transformer lowers these decorators; only accessors are ours.
            for element in elements {
                if let ClassElement::AccessorProperty(p) = element {
                    if let Some(d) = p.decorators.first() {
                        self.refuse(
                            d.span.start,
                            "a decorator on an `accessor` field is not supported with \
                             experimentalDecorators: decorate a getter and setter pair instead",
                        );
                    }
                    self.lower_accessor(p, None, class_name);
                }
            }
            return;
        }
        if class.decorators.is_empty() && !decorated_elements {
            for element in elements {
                if let ClassElement::AccessorProperty(p) = element {
                    self.lower_accessor(p, None, class_name);
                }
            }
            return;
        }
        let id = format!("c{}", self.classes);
        self.classes += 1;
        let body_start = class.body.span.start + 1;
        let inferred = match class.id {
            None if !class.decorators.is_empty() => self
                .names
                .iter()
                .find(|(at, _)| *at == class.span.start)
                .map(|(_, name)| format!(",{}", json(name))),
            _ => None,
        };
        let mut prologue = format!(
            "static{{babelHelpers.decoratorsBegin(this,\"{id}\"{})}}",
            inferred.unwrap_or_default()
        );
        for d in &class.decorators {
            self.check_scope(d);
            let expression = self.text(d.expression.span().start, d.expression.span().end);
            prologue.push_str(&format!(
                "static{{babelHelpers.decoratorsClass(this,\"{id}\",({expression}))}}"
            ));
            self.replace(d.span.start, d.span.end, "");
        }
        let instance_decorated = elements
            .iter()
            .any(|e| !element_decorators(e).is_empty() && !element_static(e));
        if instance_decorated {
            prologue.push_str(&format!(
                "#__decorators=babelHelpers.decoratorsStart(this,\"{id}\");"
            ));
        }
        self.insert(body_start, prologue);
        for element in elements {
            match element {
                ClassElement::MethodDefinition(m) if !m.decorators.is_empty() => {
                    self.decorated_method(&id, m);
                }
                ClassElement::PropertyDefinition(p) if !p.decorators.is_empty() => {
                    self.decorated_field(&id, p);
                }
                ClassElement::AccessorProperty(p) => {
                    self.lower_accessor(p, Some(&id), class_name);
                }
                _ => {}
            }
        }
        self.insert(
            class.body.span.end - 1,
            format!(";static{{babelHelpers.decoratorsApply(this,\"{id}\")}}"),
        );
        if class.decorators.is_empty() {
            return;
        }
        let done = "babelHelpers.decoratorsDone";
        match (&class.r#type, &class.id) {
            (ClassType::ClassDeclaration, Some(name)) => {
                let name = name.name.as_str();
                self.insert(class.span.end, format!(";{name}={done}({name},\"{id}\");"));
            }
            (kind, _) => {
                // A class expression, or `export default class {}`: the
                // class itself is wrapped.
                let from = class
                    .decorators
                    .last()
                    .map_or(class.span.start, |d| d.span.end);
                let Some(keyword) = self.class_keyword(class, from) else {
                    self.refuse(class.span.start, "this decorated class cannot be lowered");
                    return;
                };
                if self.text(from, keyword).contains("abstract") {
                    self.refuse(
                        class.span.start,
                        "a decorator on an anonymous abstract class is not supported: name the class",
                    );
                    return;
                }
                self.insert(keyword, format!("{done}("));
                let close = if matches!(kind, ClassType::ClassDeclaration) {
                    ");"
                } else {
                    ")"
                };
                self.insert(class.span.end, format!(",\"{id}\"{close}"));
            }
        }
    }

    /// The name of a decorated member as the runtime sees it, or a refusal
    /// for a computed one.
    fn member_name(&mut self, key: &PropertyKey<'_>, computed: bool, at: u32) -> Option<String> {
        // A computed name is known here only when it is a literal.
        let literal = matches!(
            key,
            PropertyKey::StringLiteral(_) | PropertyKey::NumericLiteral(_)
        );
        let name = if computed && !literal {
            None
        } else if let Some(private) = key.private_name() {
            Some(format!("#{private}"))
        } else {
            key.static_name().map(|n| n.into_owned())
        };
        if name.is_none() {
            self.refuse(
                at,
                "a decorator on a member with a computed name is not supported: give the \
                 member a plain name",
            );
        }
        name
    }

    /// [`Self::member_name`] of a member whose decorators replace it (a
    /// method, getter, setter or accessor: `kind`), which a `#private` one
    /// cannot be, so it is refused.
    fn replaceable_member_name(
        &mut self,
        key: &PropertyKey<'_>,
        computed: bool,
        at: u32,
        kind: &str,
    ) -> Option<String> {
        let name = self.member_name(key, computed, at)?;
        if key.is_private_identifier() {
            self.refuse(
                at,
                format!(
                    "a decorator on the private {kind} {name} is not supported: decorate a \
                     public (or TypeScript `private`) {kind} instead"
                ),
            );
            return None;
        }
        Some(name)
    }

    fn decorated_method(&mut self, id: &str, m: &MethodDefinition<'_>) {
        let at = m.decorators[0].span.start;
        let kind = match m.kind {
            MethodDefinitionKind::Method => "method",
            MethodDefinitionKind::Get => "getter",
            MethodDefinitionKind::Set => "setter",
            MethodDefinitionKind::Constructor => {
                self.refuse(at, "decorators are not valid on a constructor");
                return;
            }
        };
        if m.r#type == MethodDefinitionType::TSAbstractMethodDefinition || m.value.body.is_none() {
            self.refuse(
                at,
                "decorators are not valid on a method without a body (abstract or an overload \
                 signature): decorate the implementation",
            );
            return;
        }
        let Some(name) = self.replaceable_member_name(&m.key, m.computed, at, kind) else {
            return;
        };
        let member = Member {
            key: format!("{}:{kind}:{name}", if m.r#static { "s" } else { "i" }),
            kind,
            name,
            is_static: m.r#static,
            private_access: None,
        };
        for d in &m.decorators {
            self.member_decorator(id, d, &member);
        }
    }

    fn decorated_field(&mut self, id: &str, p: &PropertyDefinition<'_>) {
        let at = p.decorators[0].span.start;
        if p.declare || p.r#type == PropertyDefinitionType::TSAbstractPropertyDefinition {
            self.refuse(
                at,
                "decorators are not valid on a `declare` or abstract field: decorate a field \
                 that exists at run time",
            );
            return;
        }
        let Some(name) = self.member_name(&p.key, p.computed, at) else {
            return;
        };
        let private_access = p
            .key
            .private_name()
            .map(|n| format!("{{has:(o)=>#{n} in o,get:(o)=>o.#{n},set:(o,v)=>{{o.#{n}=v}}}}"));
        let member = Member {
            key: format!("{}:field:{name}", if p.r#static { "s" } else { "i" }),
            kind: "field",
            name,
            is_static: p.r#static,
            private_access,
        };
        for d in &p.decorators {
            self.member_decorator(id, d, &member);
        }
        if !p.r#static {
            self.wrap_initializer(
                &member.key,
                p.value.as_ref().map(|v| v.span()),
                p.key.span().end,
                p.definite,
                p.span.end,
            );
        }
    }
}

fn element_decorators<'e, 'a>(element: &'e ClassElement<'a>) -> &'e [Decorator<'a>] {
    match element {
        ClassElement::MethodDefinition(m) => &m.decorators,
        ClassElement::PropertyDefinition(p) => &p.decorators,
        ClassElement::AccessorProperty(p) => &p.decorators,
        _ => &[],
    }
}

fn element_static(element: &ClassElement<'_>) -> bool {
    match element {
        ClassElement::MethodDefinition(m) => m.r#static,
        ClassElement::PropertyDefinition(p) => p.r#static,
        ClassElement::AccessorProperty(p) => p.r#static,
        _ => false,
    }
}

#[cfg(test)]
mod tests;

/// `source` with what [`lower`] lowers written plainly, at the same
/// offsets: every decorator blanked and every `accessor` keyword blanked
/// (an `accessor` field has the early errors of the same field without
/// it). When the lowered source does not parse, this tells whose fault it
/// is: if the plain source is invalid too, the input was, and its errors
/// point into the learner's file.
pub fn plain_equivalent(program: &Program<'_>, source: &str) -> String {
    struct Blanks<'s> {
        source: &'s str,
        spans: Vec<(u32, u32)>,
    }
    impl<'a> Visit<'a> for Blanks<'_> {
        fn visit_decorator(&mut self, it: &Decorator<'a>) {
            self.spans.push((it.span.start, it.span.end));
        }
        fn visit_accessor_property(&mut self, it: &oxc::ast::ast::AccessorProperty<'a>) {
            // The keyword is the last `accessor` before the key.
            let (start, end) = (it.span.start as usize, it.key.span().start as usize);
            if let Some(found) = self
                .source
                .get(start..end)
                .and_then(|t| t.rfind("accessor"))
            {
                let at = (start + found) as u32;
                self.spans.push((at, at + "accessor".len() as u32));
            }
            oxc::ast_visit::walk::walk_accessor_property(self, it);
        }
    }
    let mut blanks = Blanks {
        source,
        spans: Vec::new(),
    };
    blanks.visit_program(program);
    let mut bytes = source.as_bytes().to_vec();
    for (start, end) in blanks.spans {
        for b in bytes.iter_mut().take(end as usize).skip(start as usize) {
            // Newlines kept, so that lines and columns stay the learner's;
            // the bytes of a multi-byte character all become spaces.
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| source.to_owned())
}
