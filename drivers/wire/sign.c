/*
 * sign.c - who may post work to a worker: the key a coordinator and its
 * workers share, the spec's signature, and the hosts a worker connects to
 * (wire.h says why).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire.h"

int
wire_key_load(const char *path, struct wire_key *key, struct pgc_error *err)
{
	struct stat st;
	unsigned char buf[WIRE_KEY_MAX + 3];
	ssize_t got;
	size_t len = 0;
	int fd;

	memset(key, 0, sizeof(*key));
	/* O_NOFOLLOW: the file checked is the file read */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0 ||
		fstat(fd, &st) < 0)
	{
		error_set(err, PGC_ERR_USAGE, "could not read the key file \"%s\": %s",
				  path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & 077) != 0 ||
		(st.st_uid != geteuid() && st.st_uid != 0))
	{
		if (S_ISREG(st.st_mode))
			error_set(err, PGC_ERR_USAGE,
					  "the key file \"%s\" may be read or written by others "
					  "(mode %04o, owner %ld): a key must be its owner's "
					  "alone",
					  path, (unsigned) (st.st_mode & 07777), (long) st.st_uid);
		else
			error_set(err, PGC_ERR_USAGE,
					  "the key file \"%s\" is not a regular file", path);
		error_hint(err,
				   "chmod 600 %s (and chown it to the user pgcliff runs "
				   "as)",
				   path);
		close(fd);
		return -1;
	}
	while (len < sizeof(buf) &&
		   (got = read(fd, buf + len, sizeof(buf) - len)) != 0)
	{
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
		{
			error_set(err, PGC_ERR_USAGE,
					  "could not read the key file \"%s\": %s", path,
					  strerror(errno));
			close(fd);
			return -1;
		}
		len += (size_t) got;
	}
	close(fd);
	/* a key typed or echoed into the file ends with a newline */
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	if (len < WIRE_KEY_MIN || len > WIRE_KEY_MAX)
	{
		error_set(err, PGC_ERR_USAGE,
				  "the key file \"%s\" holds %s%zu bytes: a key is %d to %d",
				  path, len > WIRE_KEY_MAX ? "more than " : "",
				  len > WIRE_KEY_MAX ? (size_t) WIRE_KEY_MAX : len,
				  WIRE_KEY_MIN, WIRE_KEY_MAX);
		error_hint(err,
				   "make one with: (umask 077; openssl rand -hex 32 > %s)",
				   path);
		OPENSSL_cleanse(buf, sizeof(buf));
		return -1;
	}
	memcpy(key->bytes, buf, len);
	key->len = len;
	OPENSSL_cleanse(buf, sizeof(buf));
	return 0;
}

void
wire_sign(const struct wire_key *key, const char *run_uid, int order,
		  const char *spec, char out[WIRE_SIGNATURE_LEN + 1])
{
	struct strbuf msg = STRBUF_INIT;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char num[16];

	/* each part ends with a NUL: no two messages of other parts are the
	 * same bytes */
	snprintf(num, sizeof(num), "%d", order);
	strbuf_add(&msg, "pgcliff spec 1", sizeof("pgcliff spec 1"));
	strbuf_add(&msg, run_uid, strlen(run_uid) + 1);
	strbuf_add(&msg, num, strlen(num) + 1);
	strbuf_add(&msg, spec, strlen(spec) + 1);
	HMAC(EVP_sha256(), key->bytes, (int) key->len,
		 (const unsigned char *) msg.buf, msg.len, md, &mdlen);
	for (unsigned i = 0; i < mdlen && 2 * i < WIRE_SIGNATURE_LEN; i++)
		snprintf(out + (ptrdiff_t) 2 * i, 3, "%02x", md[i]);
	out[WIRE_SIGNATURE_LEN] = '\0';
	strbuf_release(&msg);
}

int
wire_verify(const struct wire_key *key, const char *run_uid, int order,
			const char *spec, const char *signature, struct pgc_error *err)
{
	char want[WIRE_SIGNATURE_LEN + 1];

	if (signature == NULL || strlen(signature) != WIRE_SIGNATURE_LEN)
	{
		error_set(err, PGC_ERR_UNAVAILABLE,
				  "refused: the point's spec is not signed (a coordinator "
				  "signs every spec it posts with its --key-file)");
		return -1;
	}
	wire_sign(key, run_uid ? run_uid : "", order, spec ? spec : "", want);
	if (CRYPTO_memcmp(want, signature, WIRE_SIGNATURE_LEN) != 0)
	{
		error_set(err, PGC_ERR_UNAVAILABLE,
				  "refused: the point's spec is not signed with this "
				  "worker's key (another key, or a spec not posted for "
				  "this run and step)");
		error_hint(err, "give the coordinator and its workers the same "
						"--key-file");
		return -1;
	}
	return 0;
}

bool
wire_host_allowed(const struct wire_hosts *allow, const char *host)
{
	/* none: the worker's own default (PGHOST, its socket directory) */
	if (host == NULL || host[0] == '\0')
		return true;
	/* a directory below an allowed one, not one above it */
	for (const char *d = strstr(host, "/."); d; d = strstr(d + 1, "/."))
		if (d[2] == '\0' || d[2] == '/' ||
			(d[2] == '.' && (d[3] == '\0' || d[3] == '/')))
			return false;
	for (int i = 0; i < allow->n; i++)
	{
		const char *a = allow->host[i];
		size_t n = strlen(a);

		if (a[0] == '/' && host[0] == '/')
		{
			/* a socket directory and those below it; "/x/" as "/x" */
			while (n > 1 && a[n - 1] == '/')
				n--;
			if (strncmp(host, a, n) == 0 &&
				(host[n] == '\0' || host[n] == '/' || n == 1))
				return true;
		}
		else if (a[0] != '/' && host[0] != '/' && strcasecmp(a, host) == 0)
			return true;
	}
	return false;
}
