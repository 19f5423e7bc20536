#ifndef CLIBCURL_H
#define CLIBCURL_H

#include <stddef.h>
#include <stdint.h>

/// One HTTP transfer for `clibcurl_perform`. Callbacks run on the calling thread, during the call.
typedef struct clibcurl_request {
    const char *method;
    const char *url;
    /// "Name: value" lines.
    const char *const *headers;
    size_t header_count;
    /// The body to send, or NULL for none.
    const void *body;
    size_t body_length;
    /// Limits in milliseconds: to connect, for the whole transfer (0 for none), and with no byte
    /// received or sent (whole seconds, 0 for none).
    long connect_timeout_ms;
    long total_timeout_ms;
    long idle_seconds;
    /// Passed back to each callback.
    void *context;
    /// One header line of the answer (the status line first, an empty line last): returns 0 to
    /// go on, non-zero to stop the transfer.
    int (*on_header)(void *context, const char *line, size_t length);
    /// The next bytes of the body: returns 0 to go on, non-zero to stop.
    int (*on_body)(void *context, const char *bytes, size_t length);
    /// Asked at least once a second while the transfer runs: non-zero stops it.
    int (*should_stop)(void *context);
} clibcurl_request;

/// Loads libcurl on first use: NULL when it is there, otherwise why not (a static string).
const char *clibcurl_load(void);

/// A new transfer handle (it keeps its connections open between transfers), or NULL.
void *clibcurl_handle_new(void);
void clibcurl_handle_free(void *handle);

/// Runs `request` on `handle`: libcurl's result code (0 when the answer came whole), and libcurl's
/// own words in `error` (at least 256 bytes). The status comes with the header lines.
int clibcurl_perform(void *handle, const clibcurl_request *request, char *error);

/// libcurl's words for a result code.
const char *clibcurl_strerror(int code);

/// The result codes callers tell apart (libcurl's numbers, part of its ABI).
enum {
    CLIBCURL_OK = 0,
    CLIBCURL_UNSUPPORTED_PROTOCOL = 1,
    CLIBCURL_URL_MALFORMAT = 3,
    CLIBCURL_COULDNT_RESOLVE_HOST = 6,
    CLIBCURL_COULDNT_CONNECT = 7,
    CLIBCURL_WRITE_ERROR = 23,
    CLIBCURL_OPERATION_TIMEDOUT = 28,
    CLIBCURL_SSL_CONNECT_ERROR = 35,
    CLIBCURL_ABORTED_BY_CALLBACK = 42,
    CLIBCURL_SSL_CERTPROBLEM = 58,
    CLIBCURL_PEER_FAILED_VERIFICATION = 60,
    CLIBCURL_SSL_CACERT_BADFILE = 77,
    /// Not libcurl's: the library could not be loaded.
    CLIBCURL_NOT_LOADED = -1,
};

#endif
