/* check_main.h: the shared main of every Check suite: runs '<module>_suite()'. */
#ifndef SS_CHECK_MAIN_H
#define SS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define SS_CHECK_MAIN(suite_fn)                                                                    \
    int main(void)                                                                                 \
    {                                                                                              \
        SRunner *runner = srunner_create(suite_fn());                                              \
        srunner_run_all(runner, CK_NORMAL);                                                        \
        int failed = srunner_ntests_failed(runner);                                                \
        srunner_free(runner);                                                                      \
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;                                          \
    }

#endif
