//! `accessor` fields: a private storage field and a getter and setter pair.

use super::{Lowering, Member, PropertyKey};
use oxc::ast::ast::{AccessorProperty, AccessorPropertyType};
use oxc::span::GetSpan;

impl Lowering<'_> {
    /// `accessor x = v` becomes a private storage field with a getter and
    /// setter pair named `x`; `class_id` is the class's when it has
    /// decorators (which the accessor's own may be), `class_name` its
    /// name, through which a static accessor reaches its storage (read
    /// through a subclass, `this` is the subclass, which has none).
    pub(super) fn lower_accessor(
        &mut self,
        p: &AccessorProperty<'_>,
        class_id: Option<&str>,
        class_name: Option<&str>,
    ) {
        let start = p.decorators.last().map_or(p.span.start, |d| d.span.end);
        let literal = matches!(
            p.key,
            PropertyKey::StringLiteral(_) | PropertyKey::NumericLiteral(_)
        );
        let (key, key_end) = if !p.computed {
            (
                self.text(p.key.span().start, p.key.span().end).to_owned(),
                p.key.span().end,
            )
        } else if let (true, Some(close)) =
            (literal, self.text(p.key.span().end, p.span.end).find(']'))
        {
            let close = p.key.span().end + close as u32 + 1;
            let name = self.text(p.key.span().start, p.key.span().end);
            (format!("[{name}]"), close)
        } else {
            self.refuse(
                p.key.span().start,
                "an `accessor` field with a computed name is not supported: give it a plain \
                 name, or write the getter and setter",
            );
            return;
        };
        let modifiers = self.text(start, p.key.span().start);
        let Some(keyword) = modifiers
            .match_indices("accessor")
            .map(|(i, _)| start + i as u32)
            .last()
        else {
            self.refuse(p.span.start, "this `accessor` field cannot be lowered");
            return;
        };
        if p.r#type == AccessorPropertyType::TSAbstractAccessorProperty {
            // Declares a getter and setter pair only: drop the keyword.
            self.replace(keyword, keyword + "accessor".len() as u32, "");
            return;
        }
        let storage = format!("#accessor_storage_{}", self.storages);
        self.storages += 1;
        self.replace(
            start,
            key_end,
            &format!("{}{storage}", if p.r#static { "static " } else { "" }),
        );
        if let (Some(id), false) = (class_id, p.decorators.is_empty()) {
            self.decorated_accessor(id, p, key_end);
        }
        let pair = match (p.r#static, class_name) {
            (false, _) => format!(
                "get {key}() {{ return this.{storage}; }} set {key}(value) {{ this.{storage} = value; }}"
            ),
            (true, Some(class)) => format!(
                "static get {key}() {{ return {class}.{storage}; }} static set {key}(value) {{ {class}.{storage} = value; }}"
            ),
            (true, None) => {
                // No name to reach the class by: the nearest class above
                // `this` that has the storage.
                let find = format!(
                    "let o = this; while (!({storage} in o)) o = Object.getPrototypeOf(o);"
                );
                format!(
                    "static get {key}() {{ {find} return o.{storage}; }} static set {key}(value) {{ {find} o.{storage} = value; }}"
                )
            }
        };
        // After the initializer's edits: insertions at one offset keep
        // their order.
        self.insert(p.span.end, format!(";{pair}"));
    }

    fn decorated_accessor(&mut self, id: &str, p: &AccessorProperty<'_>, key_end: u32) {
        let at = p.decorators[0].span.start;
        let Some(name) = self.replaceable_member_name(&p.key, p.computed, at, "accessor") else {
            return;
        };
        let member = Member {
            key: format!("{}:accessor:{name}", if p.r#static { "s" } else { "i" }),
            kind: "accessor",
            name,
            is_static: p.r#static,
            private_access: None,
        };
        for d in &p.decorators {
            self.member_decorator(id, d, &member);
        }
        if !p.r#static {
            self.wrap_initializer(
                &member.key,
                p.value.as_ref().map(|v| v.span()),
                key_end,
                p.definite,
                p.span.end,
            );
        }
    }
}
