//! The walk over the program: the classes it lowers, the names anonymous
//! classes get from where they stand, and what a decorator's expression
//! may not use.

use super::{Decorators, Lowering};
use oxc::ast::ast::{
    AssignmentExpression, AssignmentOperator, AssignmentTarget, BindingPattern, Class,
    ExportDefaultDeclaration, ExportDefaultDeclarationKind, Expression, FormalParameter,
    ObjectProperty, PropertyDefinition, PropertyKey, VariableDeclarator,
};
use oxc::ast_visit::{Visit, walk};

/// What a decorator's expression may not use once it is moved into a
/// static block, where `await`, `yield` and `arguments` are not allowed and
/// `this` is the class: the offset and name of the first use.
#[derive(Default)]
pub(super) struct OuterScope {
    pub(super) first: Option<(u32, &'static str)>,
    /// Inside an arrow function (which has no `arguments` or `this` of its
    /// own, but may be async).
    arrows: usize,
}

impl OuterScope {
    fn note(&mut self, at: u32, what: &'static str) {
        if self.first.is_none_or(|(first, _)| at < first) {
            self.first = Some((at, what));
        }
    }
}

impl<'a> Visit<'a> for OuterScope {
    fn visit_function(
        &mut self,
        _: &oxc::ast::ast::Function<'a>,
        _: oxc::syntax::scope::ScopeFlags,
    ) {
    }

    fn visit_class(&mut self, _: &Class<'a>) {}

    fn visit_arrow_function_expression(&mut self, it: &oxc::ast::ast::ArrowFunctionExpression<'a>) {
        self.arrows += 1;
        walk::walk_arrow_function_expression(self, it);
        self.arrows -= 1;
    }

    fn visit_await_expression(&mut self, it: &oxc::ast::ast::AwaitExpression<'a>) {
        if self.arrows == 0 {
            self.note(it.span.start, "`await`");
        }
        walk::walk_await_expression(self, it);
    }

    fn visit_yield_expression(&mut self, it: &oxc::ast::ast::YieldExpression<'a>) {
        self.note(it.span.start, "`yield`");
        walk::walk_yield_expression(self, it);
    }

    fn visit_this_expression(&mut self, it: &oxc::ast::ast::ThisExpression) {
        self.note(it.span.start, "`this`");
    }

    fn visit_identifier_reference(&mut self, it: &oxc::ast::ast::IdentifierReference<'a>) {
        if it.name == "arguments" {
            self.note(it.span.start, "`arguments`");
        }
    }
}

impl Lowering<'_> {
    /// Notes the name `value` gets when it is an anonymous class expression.
    fn name_class(&mut self, value: &Expression<'_>, name: &str) {
        if let Expression::ClassExpression(class) = value.get_inner_expression()
            && class.id.is_none()
        {
            self.names.push((class.span.start, name.to_owned()));
        }
    }
}

impl<'a> Visit<'a> for Lowering<'_> {
    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init) {
            self.name_class(init, id.name.as_str());
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        if let AssignmentTarget::AssignmentTargetIdentifier(id) = &it.left
            && (it.operator == AssignmentOperator::Assign || it.operator.is_logical())
        {
            self.name_class(&it.right, id.name.as_str());
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_object_property(&mut self, it: &ObjectProperty<'a>) {
        let literal = matches!(
            it.key,
            PropertyKey::StringLiteral(_) | PropertyKey::NumericLiteral(_)
        );
        // `__proto__: value` sets the prototype; `["__proto__"]: value` names.
        if let (false, true, Some(name)) =
            (it.shorthand, !it.computed || literal, it.key.static_name())
            && (name != "__proto__" || it.computed)
        {
            self.name_class(&it.value, &name);
        }
        walk::walk_object_property(self, it);
    }

    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        let name = match it.key.private_name() {
            Some(private) => Some(format!("#{private}")),
            None if !it.computed => it.key.static_name().map(|n| n.into_owned()),
            None => None,
        };
        if let (Some(name), Some(value)) = (name, &it.value) {
            self.name_class(value, &name);
        }
        walk::walk_property_definition(self, it);
    }

    fn visit_export_default_declaration(&mut self, it: &ExportDefaultDeclaration<'a>) {
        match &it.declaration {
            ExportDefaultDeclarationKind::ClassDeclaration(class) if class.id.is_none() => {
                self.names.push((class.span.start, "default".into()));
            }
            kind => {
                if let Some(value) = kind.as_expression() {
                    self.name_class(value, "default");
                }
            }
        }
        walk::walk_export_default_declaration(self, it);
    }

    fn visit_class(&mut self, class: &Class<'a>) {
        self.lower_class(class);
        walk::walk_class(self, class);
    }

    fn visit_formal_parameter(&mut self, it: &FormalParameter<'a>) {
        if let (Decorators::Standard, Some(d)) = (self.decorators, it.decorators.first()) {
            self.refuse(
                d.span.start,
                "parameter decorators exist only in the experimentalDecorators form: set \
                 \"experimentalDecorators\": true in the compilerOptions of a tsconfig.json \
                 beside your file",
            );
        }
        walk::walk_formal_parameter(self, it);
    }
}
