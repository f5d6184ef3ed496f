/* old_c.c: C that GCC 12 builds with warnings and clang 16 refuses unless told otherwise (an
 * implicitly declared function, an implicit int): lint analyzes it with no parse error, as
 * Rodinia's C sources needed (docs/studies/lint-realworld.md). */
static count = 3;

int main(void)
{
    return helper(count);
}
