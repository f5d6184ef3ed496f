/* Found only through the include paths CMake puts in a response file. */
#define PROJECT_CONFIG 1
