#ifndef GG_LINUX_FILES_H
#define GG_LINUX_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Two Linux file calls Swift's Glibc module does not declare (they need
   _GNU_SOURCE). Used only by SiteOutput, for the build state: hundreds of
   MB at a million photos. */

/* Copies up to `count` bytes of the file open as `from`, at `*offset`
   (advanced by what was copied), to the file open as `to` at its own
   position, inside the kernel (copy_file_range): the state's unchanged
   entries are not read into the process and written out again. Returns
   the bytes copied, 0 at the end of `from`, or -1 with errno set; ENOSYS,
   EXDEV, EINVAL or EOPNOTSUPP mean the kernel or file system cannot, and
   the caller copies by hand. */
ssize_t gg_copy_file_range(int from, int64_t *offset, int to, size_t count);

/* Swaps the files `a` and `b` name, atomically (renameat2 with
   RENAME_EXCHANGE): a new state put in place this way is not flushed by
   ext4 first, as a rename over a file is (its replace-by-rename heuristic:
   half a second for 433 MB on a loaded machine). 0, or -1 with errno set;
   EINVAL, ENOSYS or EOPNOTSUPP mean the file system cannot, and ENOENT that
   `b` does not exist: the caller renames instead. */
int gg_exchange_files(const char *a, const char *b);

#endif
