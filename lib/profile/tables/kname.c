/*
 * Short kernel names for the tables people read (text and Markdown). A demangled GPU kernel name
 * is mostly template arguments and parameter lists: PyTorch's elementwise kernels differ only
 * in the functor buried in them (`void native::elementwise_kernel<128, 4, void
 * native::gpu_kernel_impl_nocast<native::direct_copy_kernel_cuda(...)::[lambda() (instance
 * 3)]...>(...)>(int, T3)`), so cutting the name at a width shows the same prefix for different
 * kernels. A short name keeps the function's own name and the first template argument that
 * tells instances apart: `elementwise_kernel<direct_copy_kernel_cuda>`. Names without templates
 * or parameters (nvjet_sm90_tst_..., triton_..., cudnn_generated_...) stay whole; Tensile's long
 * `Cijk_` names keep their leading fields up to the macro tile and the MFMA instruction.
 *
 * Short names can collide (two instantiations of one template): hp__names_unique adds " #2",
 * " #3" in table order. The full names stay in JSON and CSV; `--wide` prints them in text too.
 */
#include "profile/tables/table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Identifiers in template arguments that never tell two kernels apart: types, PyTorch's and
 * CUTLASS's generic wrappers, words of lambda and namespace spellings. */
static const char *const generic[] = {"void",
                                      "int",
                                      "unsigned",
                                      "long",
                                      "short",
                                      "char",
                                      "float",
                                      "double",
                                      "bool",
                                      "const",
                                      "signed",
                                      "true",
                                      "false",
                                      "BFloat16",
                                      "Half",
                                      "half",
                                      "bfloat16",
                                      "__nv_bfloat16",
                                      "__half",
                                      "array",
                                      "ReduceOp",
                                      "func_wrapper_t",
                                      "BinaryFunctor",
                                      "AUnaryFunctor",
                                      "BUnaryFunctor",
                                      "UnaryFunctor",
                                      "gpu_kernel_impl",
                                      "gpu_kernel_impl_nocast",
                                      "TensorIteratorBase",
                                      "TensorIterator",
                                      "lambda",
                                      "instance",
                                      "operator",
                                      "OffsetCalculator",
                                      "TrivialOffsetCalculator",
                                      "LoadWithoutCast",
                                      "StoreWithoutCast",
                                      "LoadWithCast",
                                      "StoreWithCast",
                                      "unnamed",
                                      "anonymous",
                                      "namespace",
                                      "uint8_t",
                                      "int8_t",
                                      "int16_t",
                                      "int32_t",
                                      "int64_t",
                                      "uint16_t",
                                      "uint32_t",
                                      "uint64_t",
                                      "size_t",
                                      "complex",
                                      "Tensor",
                                      "Scalar",
                                      "TensorInfo",
                                      "PhiloxCudaState",
                                      "Sequence",
                                      "tuple",
                                      "integral_constant",
                                      "type",
                                      "value",
                                      "float2",
                                      "float4",
                                      "half2",
                                      "nv_bfloat16",
                                      "bfloat162",
                                      "std",
                                      "c10",
                                      "at",
                                      "native",
                                      "detail",
                                      "cuda",
                                      "hip",
                                      "templates",
                                      "memory",
                                      "policies"};

static int is_generic(const char *s, size_t n)
{
  size_t i;

  if (n <= 2) /* T1, T2, N, ... */
    return 1;
  for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
    if (strlen(generic[i]) == n && memcmp(generic[i], s, n) == 0)
      return 1;
  return 0;
}

static int ident_char(char c)
{
  return isalnum((unsigned char)c) || c == '_';
}

/* Copies `s` without the spellings of anonymous namespaces, whose brackets would read as a
 * template or a parameter list. */
static char *drop_anonymous(const char *s)
{
  static const char *const anon[] = {"<unnamed>::", "(anonymous namespace)::"};
  char *d = hp__strdup(s), *p;
  size_t i;

  for (i = 0; d && i < sizeof(anon) / sizeof(anon[0]); i++)
    while ((p = strstr(d, anon[i])) != NULL)
      memmove(p, p + strlen(anon[i]), strlen(p + strlen(anon[i])) + 1);
  return d;
}

/* The end of the bracketed group that opens at s[0] ('<', '(', '[' or '{'), or the string's end. */
static const char *group_end(const char *s)
{
  int depth = 0;

  for (; *s; s++) {
    if (*s == '<' || *s == '(' || *s == '[' || *s == '{')
      depth++;
    else if (*s == '>' || *s == ')' || *s == ']' || *s == '}')
      if (--depth == 0)
        return s;
  }
  return s;
}

/* The first identifier in [s, end) that is not generic and not a namespace (followed by "::"). */
static const char *telling_arg(const char *s, const char *end, size_t *len)
{
  while (s < end) {
    const char *b;
    if (isdigit((unsigned char)*s)) { /* a number whole, so that "128x64" does not yield "x64" */
      while (s < end && ident_char(*s))
        s++;
      continue;
    }
    if (!ident_char(*s)) {
      s++;
      continue;
    }
    for (b = s; s < end && ident_char(*s); s++)
      ;
    if (s + 1 < end && s[0] == ':' && s[1] == ':')
      continue;
    if (!is_generic(b, (size_t)(s - b))) {
      *len = (size_t)(s - b);
      return b;
    }
  }
  return NULL;
}

/* Tensile's names: the fields up to the macro tile (MT...) and the instruction (MI...). */
static char *tensile_short(const char *s)
{
  const char *p = s, *keep = NULL;

  while ((p = strchr(p, '_')) != NULL) {
    p++;
    if (strncmp(p, "MT", 2) == 0 && isdigit((unsigned char)p[2]))
      keep = strchr(p, '_');
    else if (keep && strncmp(p, "MI", 2) == 0 && isdigit((unsigned char)p[2])) {
      keep = strchr(p, '_');
      break;
    }
  }
  if (keep == NULL || keep[0] == '\0')
    return hp__strdup(s);
  return hp__asprintf("%.*s\xE2\x80\xA6", (int)(keep - s), s);
}

char *hp__kernel_short(const char *name)
{
  char *d, *r;
  const char *s, *p, *base, *arg = NULL;
  size_t alen = 0;

  if (strncmp(name, "Cijk_", 5) == 0)
    return tensile_short(name);
  if ((d = drop_anonymous(name)) == NULL)
    return NULL;
  s = d;
  if (strncmp(s, "void ", 5) == 0)
    s += 5;
  /* The qualified function name ends at the first bracket; its last component is the base. */
  for (p = s; *p && *p != '<' && *p != '(' && *p != ' '; p++)
    ;
  if (*p == ' ' && p[1] != '<' && p[1] != '(') { /* "operator ()" and other spellings: as is */
    r = hp__strdup(s);
    free(d);
    return r;
  }
  for (base = p; base > s && !(base[-1] == ':' && base - 1 > s && base[-2] == ':'); base--)
    ;
  if (*p == '<')
    arg = telling_arg(p + 1, group_end(p), &alen);
  if (arg)
    r = hp__asprintf("%.*s<%.*s>", (int)(p - base), base, (int)alen, arg);
  else
    r = hp__strndup(base, (size_t)(p - base));
  free(d);
  return r;
}

int hp__names_unique(char **names, size_t n)
{
  size_t *nth = calloc(n ? n : 1, sizeof(*nth)), i, j;
  int r = 0;

  if (nth == NULL)
    return HP_ENOMEM;
  /* Counted on the names as given, before any is renamed. */
  for (i = 0; i < n; i++)
    for (nth[i] = 1, j = 0; j < i; j++)
      if (names[j] && names[i] && strcmp(names[j], names[i]) == 0)
        nth[i]++;
  for (i = 0; i < n && r == 0; i++) {
    char *t;
    if (nth[i] < 2)
      continue;
    /* Later rows of the same name: numbered in table order, "#2" for the second. */
    if ((t = hp__asprintf("%s #%zu", names[i], nth[i])) == NULL)
      r = HP_ENOMEM;
    else {
      free(names[i]);
      names[i] = t;
    }
  }
  free(nth);
  return r;
}
