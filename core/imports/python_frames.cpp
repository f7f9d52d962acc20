// SPDX-License-Identifier: Apache-2.0
#include "imports/python_frames.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace trainscope {
namespace {

// Python 3.11's sys.stdlib_module_names, without the private ones.
constexpr std::string_view kStandardModules[] = {
    "__future__",   "abc",          "aifc",         "antigravity", "argparse",    "array",
    "ast",          "asynchat",     "asyncio",      "asyncore",    "atexit",      "audioop",
    "base64",       "bdb",          "binascii",     "bisect",      "builtins",    "bz2",
    "cProfile",     "calendar",     "cgi",          "cgitb",       "chunk",       "cmath",
    "cmd",          "code",         "codecs",       "codeop",      "collections", "colorsys",
    "compileall",   "concurrent",   "configparser", "contextlib",  "contextvars", "copy",
    "copyreg",      "crypt",        "csv",          "ctypes",      "curses",      "dataclasses",
    "datetime",     "dbm",          "decimal",      "difflib",     "dis",         "distutils",
    "doctest",      "email",        "encodings",    "ensurepip",   "enum",        "errno",
    "faulthandler", "fcntl",        "filecmp",      "fileinput",   "fnmatch",     "fractions",
    "ftplib",       "functools",    "gc",           "genericpath", "getopt",      "getpass",
    "gettext",      "glob",         "graphlib",     "grp",         "gzip",        "hashlib",
    "heapq",        "hmac",         "html",         "http",        "idlelib",     "imaplib",
    "imghdr",       "imp",          "importlib",    "inspect",     "io",          "ipaddress",
    "itertools",    "json",         "keyword",      "lib2to3",     "linecache",   "locale",
    "logging",      "lzma",         "mailbox",      "mailcap",     "marshal",     "math",
    "mimetypes",    "mmap",         "modulefinder", "msilib",      "msvcrt",      "multiprocessing",
    "netrc",        "nis",          "nntplib",      "nt",          "ntpath",      "nturl2path",
    "numbers",      "opcode",       "operator",     "optparse",    "os",          "ossaudiodev",
    "pathlib",      "pdb",          "pickle",       "pickletools", "pipes",       "pkgutil",
    "platform",     "plistlib",     "poplib",       "posix",       "posixpath",   "pprint",
    "profile",      "pstats",       "pty",          "pwd",         "py_compile",  "pyclbr",
    "pydoc",        "pydoc_data",   "pyexpat",      "queue",       "quopri",      "random",
    "re",           "readline",     "reprlib",      "resource",    "rlcompleter", "runpy",
    "sched",        "secrets",      "select",       "selectors",   "shelve",      "shlex",
    "shutil",       "signal",       "site",         "smtpd",       "smtplib",     "sndhdr",
    "socket",       "socketserver", "spwd",         "sqlite3",     "sre_compile", "sre_constants",
    "sre_parse",    "ssl",          "stat",         "statistics",  "string",      "stringprep",
    "struct",       "subprocess",   "sunau",        "symtable",    "sys",         "sysconfig",
    "syslog",       "tabnanny",     "tarfile",      "telnetlib",   "tempfile",    "termios",
    "textwrap",     "this",         "threading",    "time",        "timeit",      "tkinter",
    "token",        "tokenize",     "tomllib",      "trace",       "traceback",   "tracemalloc",
    "tty",          "turtle",       "turtledemo",   "types",       "typing",      "unicodedata",
    "unittest",     "urllib",       "uu",           "uuid",        "venv",        "warnings",
    "wave",         "weakref",      "webbrowser",   "winreg",      "winsound",    "wsgiref",
    "xdrlib",       "xml",          "xmlrpc",       "zipapp",      "zipfile",     "zipimport",
    "zlib",         "zoneinfo"};

// Packages of PyTorch users' steps whose lines are not the project's.
constexpr std::string_view kInstalledPackages[] = {"accelerate",
                                                   "apex",
                                                   "bitsandbytes",
                                                   "datasets",
                                                   "deepspeed",
                                                   "einops",
                                                   "fairscale",
                                                   "flash_attn",
                                                   "functorch",
                                                   "huggingface_hub",
                                                   "lightning",
                                                   "numpy",
                                                   "peft",
                                                   "pytorch_lightning",
                                                   "safetensors",
                                                   "timm",
                                                   "tokenizers",
                                                   "torch",
                                                   "torchaudio",
                                                   "torchtext",
                                                   "torchvision",
                                                   "tqdm",
                                                   "transformers",
                                                   "triton",
                                                   "typing_extensions",
                                                   "xformers"};

bool listed(const std::string_view* begin, const std::string_view* end, std::string_view name) {
    return std::find(begin, end, name) != end;
}

// An absolute path (Python found the file outside its search path's folders, or a snapshot
// names it whole): under a library's folder (site-packages, dist-packages, Python's own
// lib/python3.x) it is that library's, relative to it; elsewhere it is the project's.
StackFrame absoluteFrame(std::string file, int line) {
    for (const char* folder : {"/site-packages/", "/dist-packages/"}) {
        const size_t at = file.find(folder);
        if (at != std::string::npos) {
            const size_t end = at + std::strlen(folder);
            return StackFrame(file.substr(end), line, file.substr(0, end - 1));
        }
    }
    const size_t lib = file.find("/lib/python3");
    const size_t end = lib == std::string::npos ? lib : file.find('/', lib + 12);
    if (end != std::string::npos) {
        return StackFrame(file.substr(end + 1), line, file.substr(0, end));
    }
    return StackFrame(std::move(file), line);
}

}  // namespace

std::optional<StackFrame> pythonFrame(const std::string& call_from) {
    const size_t colon = call_from.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == call_from.size()) {
        return std::nullopt;
    }
    char* end = nullptr;
    const long line = std::strtol(call_from.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || line <= 0 || line > 100000000) {
        return std::nullopt;
    }
    std::string file = call_from.substr(0, colon);
    if (file.front() == '/') {
        return absoluteFrame(std::move(file), static_cast<int>(line));
    }
    // Its first folder, or its module ("typing.py" is typing); "<frozen runpy>" is Python's.
    const size_t slash = file.find('/');
    std::string_view top = std::string_view(file).substr(0, slash);
    if (slash == std::string::npos && top.size() > 3 && top.substr(top.size() - 3) == ".py") {
        top.remove_suffix(3);
    }
    const char* root = nullptr;
    if (file.front() == '<' ||
        listed(std::begin(kStandardModules), std::end(kStandardModules), top)) {
        root = kPythonStandardRoot;
    } else if (listed(std::begin(kInstalledPackages), std::end(kInstalledPackages), top)) {
        root = kInstalledPackagesRoot;
    }
    return StackFrame(std::move(file), static_cast<int>(line),
                      root ? SharedText(root) : SharedText());
}

std::string traceModuleName(const std::string& python_call) {
    constexpr std::string_view kModule = "nn.Module: ";
    return python_call.compare(0, kModule.size(), kModule) == 0 ? python_call.substr(kModule.size())
                                                                : std::string();
}

}  // namespace trainscope
