"""Uploaded media on S3-compatible object storage (django-storages, the `prod` extra): while
the storage does not answer, an upload is refused plainly (labsite.outages), inside the
change's transaction, instead of failing with a server error."""

import contextlib

from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as EndpointUnreachable
from storages.backends import s3

from labsite.outages import StorageUnavailable


@contextlib.contextmanager
def _answering():
    try:
        yield
    except (EndpointUnreachable, HTTPClientError) as error:  # refused, timed out, cut off
        raise StorageUnavailable(repr(error)) from error
    except ClientError as error:
        if error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) >= 500:
            raise StorageUnavailable(repr(error)) from error  # the service's own failure
        raise


class S3Storage(s3.S3Storage):
    def _save(self, name, content):
        with _answering():
            return super()._save(name, content)

    def exists(self, name):
        with _answering():
            return super().exists(name)
