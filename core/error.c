#include "error.h"

static const char *const kind_text[] = {
#define X(name, code, text) [name] = text,
    TENSIM_ERROR_KINDS(X)
#undef X
};

static const int kind_code[] = {
#define X(name, code, text) [name] = code,
    TENSIM_ERROR_KINDS(X)
#undef X
};

const char *err_kind_text(enum err_kind k)
{
    return (unsigned)k < ERR_KIND_COUNT ? kind_text[k] : "?";
}

int err_kind_exit_code(enum err_kind k)
{
    return (unsigned)k < ERR_KIND_COUNT ? kind_code[k] : 109;
}
