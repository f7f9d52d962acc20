# SPDX-License-Identifier: Apache-2.0
# Not an entry point: it defines no providers.
VALUE = 1
