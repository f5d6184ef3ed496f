// Does not parse: the name is declared nowhere.
void broken()
{
    undeclared_call();
}
