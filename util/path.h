/* path.h: paths as text: joined and normalized, resolved through links, and taken relative
 * to a folder, the one rule of "inside a folder" for every part. */
#ifndef SS_PATH_H
#define SS_PATH_H

/* 'path' joined to 'base' when it is relative and 'base' is not NULL, with repeated slashes,
 * "." and ".." segments removed lexically (no file system access: the file may not exist).
 * "/" at the least. Malloc'ed; aborts when memory is exhausted. */
char *ss_path_normalize(const char *base, const char *path);

/* The part of 'path' below the folder 'root' when 'path' lies inside it ('path' starts with
 * 'root', a '/' and at least one more character; a trailing '/' of 'root' is ignored, so that
 * everything absolute but "/" lies inside "/", and /work/rootx does not lie inside
 * /work/root). Returns a pointer into 'path', or NULL when it lies outside. Both are compared
 * as text: resolve or normalize them first. */
const char *ss_path_under(const char *root, const char *path);

/* 'path' made absolute against 'base' (absolute), resolved through symbolic links when it
 * exists, else normalized lexically. Malloc'ed. */
char *ss_path_resolve(const char *base, const char *path);

/* realpath of 'path', or, for a file that does not exist (a source named with
 * --stdin-filename), realpath of its folder with its name. Malloc'ed, or NULL (errno set). */
char *ss_path_real_or_named(const char *path);

/* 'path' with its folder resolved (realpath) and its own name kept as given, even where it is
 * a symbolic link (a build that links 'k.cpp' to 'k.cpp.Cuda' compiles 'k.cpp', C++ by its
 * name). Malloc'ed, or NULL when the folder cannot be resolved (errno set). */
char *ss_path_named(const char *path);

/* A path as shown to the user (malloc'ed): its real path (ss_path_real_or_named) relative to
 * the working directory when it lies under it, else absolute; a file in a folder that does not
 * exist (yet) is shown relative all the same, and 'path' as it is when nothing else can be had. */
char *ss_path_display(const char *path);

/* The last component of 'path' (after its last '/'). */
const char *ss_path_base_name(const char *path);

#endif
