/* stream_members.c: the streams a unit holds in members of the project's classes, for the
 * project pass's question whether every stream of the program blocks (project_foreign.c,
 * streams_block; docs/lint.md, "session 45"). A member is a stream the unit did not create
 * where the unit alone is asked (drained.c, foreign_stream); across the units of a whole run,
 * it holds only streams created blocking where some unit stores such a creation into it
 * ('cudaStreamCreate(&state->stream)') and no unit stores anything else into it but a null
 * constant or the legacy stream. Each unit records the members it reads, those it creates
 * blocking, and those it stores anything else into (its "loose" ones), by USR. */
#include "ast.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* The stream member (a field of a stream type, declared in the unit's own code) that 'c' names:
 * a member expression or a constructor's initializer of it ('MemberRef'); a null cursor for
 * anything else. A field a system header declares counts as one, so that a unit reading it is
 * refused (the library may store anything into it). */
static CXCursor member_named(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_MemberRefExpr && k != CXCursor_MemberRef)
        return clang_getNullCursor();
    CXCursor field = clang_getCursorReferenced(c);
    if (clang_getCursorKind(field) != CXCursor_FieldDecl ||
        !ss_check_is_stream_type(clang_getCursorType(field)))
        return clang_getNullCursor();
    return field;
}

/* Whether 'e' holds the legacy stream or a null one, as written. */
static int legacy_constant(CXCursor e)
{
    ss_stream_value v = ss_stream_constant(ss_ast_strip(e));
    return v == SS_STREAM_NULL || v == SS_STREAM_LEGACY;
}

/* Adds the USR of 'field' to the list 'list' ('count' of 'cap'), once. */
static void add_usr(char ***list, size_t *count, size_t *cap, CXCursor field)
{
    CXString s = clang_getCursorUSR(field);
    const char *usr = clang_getCString(s);
    for (size_t i = 0; usr && i < *count; i++) {
        if (strcmp((*list)[i], usr) == 0) {
            clang_disposeString(s);
            return;
        }
    }
    ss_xgrow((void **)list, cap, *count + 1, sizeof **list);
    (*list)[(*count)++] = ss_xstrdup(usr ? usr : "");
    clang_disposeString(s);
}

/* What the use 'c' of the stream member 'field' (its parent 'parent') does: a read (an
 * implicit conversion to a value), the address handed as the out-argument of a creation of a
 * blocking stream, a store of a null constant or of the legacy stream; anything else is loose
 * (a store of another value, the address or a reference handed anywhere else, a constructor's
 * initializer of anything but such a constant). */
static void record_use(ss_project_facts *f, CXCursor c, CXCursor parent, CXCursor field)
{
    enum CXCursorKind pk = clang_getCursorKind(parent);
    char op[8];
    if (ss_foreign_decl(field)) {
        add_usr(&f->members_loose, &f->members_loose_count, &f->members_loose_cap, field);
        return;
    }
    if (pk == CXCursor_UnexposedExpr && clang_getCursorKind(c) == CXCursor_MemberRefExpr) {
        add_usr(&f->members_read, &f->members_read_count, &f->members_read_cap, field);
        return;
    }
    if (pk == CXCursor_BinaryOperator && ss_ast_binary_op(parent, op, sizeof op) == 0 &&
        strcmp(op, "=") == 0 && ss_ast_same_node(ss_ast_strip(ss_ast_child(parent, 0)), c) &&
        legacy_constant(ss_ast_child(parent, 1)))
        return;
    add_usr(&f->members_loose, &f->members_loose_count, &f->members_loose_cap, field);
}

/* The walk of the unit's own code: each use of a stream member (record_use); the address of one
 * handed as a creation's out-argument ('&s->stream' as cudaStreamCreate's first argument) is a
 * blocking creation where the creation is one (ss_check_stream_creation 1), else loose. */
typedef struct member_walk {
    ss_project_facts *facts;
    CXCursor taken[16]; /* the '&member' of the creations seen, counted once */
    unsigned taken_count;
} member_walk;

static void creation_out(member_walk *w, CXCursor call)
{
    int creation = ss_check_stream_creation(call, ss_scope_callee_api(call));
    if (creation == 0 || clang_Cursor_getNumArguments(call) < 1 || w->taken_count >= 16)
        return;
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, 0));
    if (clang_getCursorKind(arg) != CXCursor_UnaryOperator || ss_ast_child_count(arg) != 1)
        return;
    CXCursor field = member_named(ss_ast_strip(ss_ast_child(arg, 0)));
    if (ss_ast_is_null(field))
        return;
    w->taken[w->taken_count++] = ss_ast_strip(ss_ast_child(arg, 0));
    ss_project_facts *f = w->facts;
    if (creation == 1 && !ss_foreign_decl(field))
        add_usr(&f->members_created, &f->members_created_count, &f->members_created_cap, field);
    else
        add_usr(&f->members_loose, &f->members_loose_count, &f->members_loose_cap, field);
}

static enum CXChildVisitResult find_members(CXCursor c, CXCursor parent, CXClientData data)
{
    member_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_foreign_decl(c))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        creation_out(w, c);
    if (clang_getCursorKind(c) == CXCursor_FieldDecl &&
        ss_check_is_stream_type(clang_getCursorType(c))) {
        /* A default member initializer other than a null constant or the legacy stream. */
        for (unsigned i = 0, n = ss_ast_child_count(c); i < n; i++) {
            CXCursor e = ss_ast_child(c, i);
            if (clang_isExpression(clang_getCursorKind(e)) && !legacy_constant(e))
                add_usr(&w->facts->members_loose, &w->facts->members_loose_count,
                        &w->facts->members_loose_cap, c);
        }
        return CXChildVisit_Recurse;
    }
    CXCursor field = member_named(c);
    if (ss_ast_is_null(field))
        return CXChildVisit_Recurse;
    for (unsigned i = 0; i < w->taken_count; i++) {
        if (ss_ast_same_node(w->taken[i], c))
            return CXChildVisit_Recurse;
    }
    record_use(w->facts, c, parent, field);
    return CXChildVisit_Recurse;
}

void ss_project_record_stream_members(ss_check_ctx *ctx, ss_project_facts *facts)
{
    member_walk w;
    memset(&w, 0, sizeof w);
    w.facts = facts;
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_members, &w);
    facts->streams_block_members = !facts->unjudged && ss_context_streams_block_members(ctx);
}

static void free_list(char **list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(list[i]);
    free(list);
}

void ss_project_stream_members_free(ss_project_facts *facts)
{
    free_list(facts->members_read, facts->members_read_count);
    free_list(facts->members_created, facts->members_created_count);
    free_list(facts->members_loose, facts->members_loose_count);
    facts->members_read = facts->members_created = facts->members_loose = NULL;
    facts->members_read_count = facts->members_created_count = facts->members_loose_count = 0;
}

/* Whether the list 'list' of 'count' USRs of the run's units 'facts' (each its 'at' list: 0
 * read, 1 created, 2 loose) holds 'usr'. */
static int any_unit_lists(ss_project_facts *const *facts, size_t count, int which, const char *usr)
{
    for (size_t u = 0; u < count; u++) {
        if (facts[u] == NULL)
            continue;
        char **list = which == 1 ? facts[u]->members_created : facts[u]->members_loose;
        size_t n = which == 1 ? facts[u]->members_created_count : facts[u]->members_loose_count;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(list[i], usr) == 0)
                return 1;
        }
    }
    return 0;
}

int ss_project_members_block(ss_project_facts *const *facts, size_t count, size_t u)
{
    const ss_project_facts *f = facts[u];
    if (f == NULL || f->unjudged || !f->streams_block_members)
        return 0;
    for (size_t i = 0; i < f->members_read_count; i++) {
        const char *usr = f->members_read[i];
        if (!any_unit_lists(facts, count, 1, usr) || any_unit_lists(facts, count, 2, usr))
            return 0;
    }
    return 1;
}

/* The cache's form: "membersBlock", "membersRead", "membersCreated", "membersLoose". */
static void encode_list(cJSON *o, const char *name, char *const *list, size_t count)
{
    cJSON *a = cJSON_AddArrayToObject(o, name);
    for (size_t i = 0; i < count; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(list[i]));
}

void ss_project_stream_members_encode(const ss_project_facts *facts, cJSON *o)
{
    cJSON_AddBoolToObject(o, "membersBlock", facts->streams_block_members);
    encode_list(o, "membersRead", facts->members_read, facts->members_read_count);
    encode_list(o, "membersCreated", facts->members_created, facts->members_created_count);
    encode_list(o, "membersLoose", facts->members_loose, facts->members_loose_count);
}

static void decode_list(const cJSON *o, const char *name, char ***list, size_t *count, size_t *cap,
                        int *bad)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, name), *item;
    if (!cJSON_IsArray(a)) {
        *bad = 1;
        return;
    }
    cJSON_ArrayForEach(item, a)
    {
        if (!cJSON_IsString(item)) {
            *bad = 1;
            return;
        }
        ss_xgrow((void **)list, cap, *count + 1, sizeof **list);
        (*list)[(*count)++] = ss_xstrdup(item->valuestring);
    }
}

void ss_project_stream_members_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    const cJSON *block = cJSON_GetObjectItemCaseSensitive(o, "membersBlock");
    *bad |= !cJSON_IsBool(block);
    facts->streams_block_members = cJSON_IsTrue(block);
    decode_list(o, "membersRead", &facts->members_read, &facts->members_read_count,
                &facts->members_read_cap, bad);
    decode_list(o, "membersCreated", &facts->members_created, &facts->members_created_count,
                &facts->members_created_cap, bad);
    decode_list(o, "membersLoose", &facts->members_loose, &facts->members_loose_count,
                &facts->members_loose_cap, bad);
}
