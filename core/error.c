#include "error.h"

static const char *const kind_text[] = {
#define X(name, code, text, desc) [name] = text,
    TENSIM_ERROR_KINDS(X)
#undef X
};

static const char *const kind_desc[] = {
#define X(name, code, text, desc) [name] = desc,
    TENSIM_ERROR_KINDS(X)
#undef X
};

static const int kind_code[] = {
#define X(name, code, text, desc) [name] = code,
    TENSIM_ERROR_KINDS(X)
#undef X
};

const char *err_kind_text(enum err_kind k)
{
    return (unsigned)k < ERR_KIND_COUNT ? kind_text[k] : "?";
}

const char *err_kind_description(enum err_kind k)
{
    return (unsigned)k < ERR_KIND_COUNT ? kind_desc[k] : "?";
}

int err_kind_exit_code(enum err_kind k)
{
    return (unsigned)k < ERR_KIND_COUNT ? kind_code[k] : kind_code[ERR_HOST];
}

int guest_exit_status(int g)
{
    return g >= 1 && g <= GUEST_EXIT_MAX ? g : GUEST_EXIT_OTHER;
}
