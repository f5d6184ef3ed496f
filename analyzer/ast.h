/* ast.h: small libclang cursor helpers shared by the checks and the dataflow (ast.c),
 * and the text and names of expressions, declarations and types (provenance.c). Private to
 * the analyzer. */
#ifndef SS_ANALYZER_AST_H
#define SS_ANALYZER_AST_H

#include <clang-c/Index.h>
#include <stddef.h>

/* The cursor with casts, parentheses and implicit conversions peeled off. */
CXCursor ss_ast_strip(CXCursor expr);
/* The 'index'-th child of 'parent', or a null cursor. */
CXCursor ss_ast_child(CXCursor parent, unsigned index);
unsigned ss_ast_child_count(CXCursor parent);
/* Whether 'c' is a null or invalid cursor. */
int ss_ast_is_null(CXCursor c);
/* Start offset of a cursor's extent, at its expansion location. */
unsigned ss_ast_offset(CXCursor c);
/* Start and end offsets (expansion locations) of a cursor's extent. */
void ss_ast_range(CXCursor c, unsigned *begin, unsigned *end);
/* Whether two cursors are the same node: cursors reached by different walks may differ in
 * the parent they carry, so kind and extent decide. */
int ss_ast_same_node(CXCursor a, CXCursor b);
/* The integer value of a constant expression 'expr'. Returns 0, or -1 when not constant. */
int ss_ast_eval_int(CXCursor expr, long long *value);
/* ss_ast_eval_int for a literal only ('0', 'false', 'nullptr', '-1', '!0', a macro that expands
 * to one), casts and parentheses peeled off: safe on any expression, a template's dependent ones
 * included (which libclang's evaluation may not survive); -1 for anything else. */
int ss_ast_literal_int(CXCursor expr, long long *value);
/* The name of the function a call calls (the referenced declaration's name), malloc'ed, or
 * NULL. */
char *ss_ast_callee_name(CXCursor call);
/* The member a call left unresolved in a template names ('values.copy_async(...)': its
 * member's name written after the last '.' or '->'), malloc'ed, or NULL: libclang does not
 * spell a member of a dependent type. */
char *ss_ast_dependent_member(CXCursor call);
/* Whether the token at the cursor's location, where it is written, is 'name' ('cudaMemcpyAsync'
 * for a call not renamed through a macro, '{' for a block not expanded from one). */
int ss_ast_written_as(CXCursor c, const char *name);
/* 'name' (malloc'ed, or NULL), the name 'call' calls, as the program writes it: a CUDA API
 * that the headers rename by macro ('cudaMemcpyAsync_ptsz', 'cuEventElapsedTime_v2')
 * becomes the API's name unless the call is written with the suffix. Takes 'name' and
 * returns the name, malloc'ed. */
char *ss_ast_api_name(CXCursor call, char *name);
/* The text of 'file' between offsets 'begin' and 'end' with every run of whitespace folded
 * to one space, malloc'ed, or NULL when it is unreadable, out of the file or longer than
 * 'max' bytes. */
char *ss_ast_file_text(CXTranslationUnit tu, CXFile file, unsigned begin, unsigned end, size_t max);
/* Forgets the file texts ss_ast_file_text keeps for this thread: called before a unit it read
 * is disposed. */
void ss_ast_forget_unit(void);
/* Whether 'c' lies in a system header (or has no location). */
int ss_ast_in_system_header(CXCursor c);
/* Whether the text of 'c' is written in one piece in a file: outside any macro, or inside
 * the arguments of one macro invocation ('CHECK(cudaMemcpyAsync(d, h + 1, ...))'), so that
 * its tokens are the expression's own. 0 when a token comes from a macro's body. */
int ss_ast_spelled(CXCursor c);
/* The first token of 'c', written to 'out' (cut to 'size'). Returns 0, or -1 when it has none. */
int ss_ast_first_token(CXCursor c, char *out, size_t size);
/* Whether the first token of 'c' is 'text' ('!' of a negation, '&' of an address). */
int ss_ast_first_token_is(CXCursor c, const char *text);
/* The text of the operator token of a binary operator cursor, written to 'out'. Returns 0,
 * or -1 when it cannot be read (the operator may come from a macro's body). */
int ss_ast_binary_op(CXCursor op, char *out, size_t out_size);
/* Whether a walk of the unit's declarations goes into 'c' to find what it declares: a
 * namespace, a linkage specification, a class, struct or class template (partial
 * specializations too). */
int ss_ast_opens_scope(CXCursor c);
/* Whether 'c' is a function-like cursor (function, method, constructor, lambda...). */
int ss_ast_is_function(CXCursor c);
/* Whether the function cursor 'function' runs on the device only: __global__, or __device__
 * without __host__. Its calls are device-side (dynamic parallelism's launches and streams run
 * on the device), not the host's synchronization. */
int ss_ast_is_device_only(CXCursor function);
/* The body ('{ ... }') of the function definition 'function', or a null cursor. */
CXCursor ss_ast_body(CXCursor function);
/* The index of an 'if's condition (its first expression child; an init-statement or a
 * condition variable comes before it), or the child count when it has none. */
unsigned ss_ast_if_condition(CXCursor if_stmt);
/* Whether the do statement 'do_stmt' is 'do { ... } while (0)' (a macro written as a
 * statement): its body runs once. Returns 1 or 0. */
int ss_ast_do_once(CXCursor do_stmt);
/* The variable or parameter an expression names through address-of, arithmetic, casts and
 * subscripts ('x', '&x', 'x + i', '&x[i]', '(T *)x'), or a null cursor. */
CXCursor ss_ast_named_variable(CXCursor e);
/* Visits 'c' itself with 'visit' (as a child of 'parent'), then its children unless the
 * visitor returned other than CXChildVisit_Recurse for 'c': clang_visitChildren, 'c' included. */
void ss_ast_visit_whole(CXCursor c, CXCursor parent, CXCursorVisitor visit, CXClientData data);

/* A walk over an expression in the order its parts run, for a flow that follows a function's
 * statements itself (drained.c, project_facts.c) and hands each expression here. 'data' is
 * handed to both callbacks. */
typedef struct ss_ast_run_walk {
    /* Whether a cursor of kind 'kind' met inside an expression is a statement the flow
     * follows whole (a statement expression's block), given to 'statement' unvisited. */
    int (*is_statement)(enum CXCursorKind kind);
    void (*statement)(CXCursor stmt, void *data);
    /* Each other cursor, after its children: a call after its arguments, which run first. */
    void (*after_children)(CXCursor c, void *data);
    void *data;
} ss_ast_run_walk;
/* Walks 'c' as 'walk' says; a lambda is passed over (its body runs where it is called). */
void ss_ast_run_order(CXCursor c, ss_ast_run_walk *walk);
/* Walks each child of 'c' in turn, as ss_ast_run_order does 'c'. */
void ss_ast_run_order_children(CXCursor c, ss_ast_run_walk *walk);

/* The text of 'expr' as written at its expansion location, whitespace runs folded: a macro
 * argument as in the invocation, a macro name as a macro name (an expression that ends in a
 * macro includes its name; a single macro written as another macro's argument is named as
 * written, not after the outer macro). Malloc'ed, or NULL when it is longer than 60 bytes or
 * unreadable. The one reader of an expression's text for messages. */
char *ss_expr_text(CXCursor expr);
/* Whether the unary operator 'op' steps its operand in place, '++' or '--' written before or
 * after it: 1 or 0, -1 where its text is unreadable (ss_expr_text). */
int ss_expr_steps(CXCursor op);
/* "ns::Class::name" for a declaration, skipping inline namespaces (std::__1, std::__cxx11),
 * malloc'ed. */
char *ss_qualified_name(CXCursor decl);
/* The USR of a declaration, malloc'ed, or NULL when it has none. */
char *ss_ast_usr(CXCursor decl);
/* The qualified name of the class template a type (or the type a reference or pointer
 * refers to) specializes, or of the class itself, malloc'ed; NULL when it is not a class. */
char *ss_type_template_name(CXType type);

#endif
