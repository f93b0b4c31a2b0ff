#!/usr/bin/env python3
"""hlocheck's external-protocol driver (version 1) for IREE.

Compiles each case's StableHLO module with IREE's compiler (the Python API
of iree-base-compiler, i.e. iree-compile with --iree-input-type=stablehlo)
and runs @main with IREE's runtime (iree-base-runtime), inputs and results
as .npy files. See docs/external-protocol.md; scripts/install-deps installs
the pinned wheels into .venv.

  iree_driver.py [--target llvm-cpu] [--device local-task] REQUEST.json
  iree_driver.py [--target llvm-cpu] [--device local-task] --worker

Options in the request ("options"; --backend-option KEY=VALUE on hlocheck's
command line): target, device, and compile_flags (extra iree-compile flags,
separated by spaces). The driver always passes
--iree-input-demote-f64-to-f32=false (IREE demotes f64 to f32 by default,
which would make every f64 check a check of f32) and targets the host CPU.
"""

import argparse
import collections
import hashlib
import json
import os
import re
import resource
import signal
import sys
import traceback

import ml_dtypes
import numpy as np

# Element types whose bits travel in an integer container (npy.h): the
# numpy type IREE's runtime takes them as.
VIEWED = {
    "bf16": ml_dtypes.bfloat16,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz,
    "f8E4M3": ml_dtypes.float8_e4m3,
    "f8E3M4": ml_dtypes.float8_e3m4,
    "f8E8M0FNU": ml_dtypes.float8_e8m0fnu,
    "f4E2M1FN": ml_dtypes.float4_e2m1fn,
}
# Sub-byte integers (a value per byte in the container): (bit width, signed).
# IREE's runtime maps no NumPy dtype to them ("could not map dtype
# dtype(int2) to element type"), but its HAL takes them packed densely, the
# first element in the lowest bits of the first byte (iree/hal/buffer_view.h):
# the driver packs and unpacks the bytes itself and hands IREE buffer views.
PACKED = {"si2": (2, True), "si4": (4, True), "ui2": (2, False), "ui4": (4, False)}
# iree_hal_element_type_t: the numerical type in the high byte, the bit count
# in the low bits (IREE_HAL_ELEMENT_TYPE_VALUE); 0x11 is SINT, 0x12 UINT.
HAL_NUMERICAL_TYPE = {True: 0x11, False: 0x12}

# Always passed: keep f64 as f64 (IREE's default demotes it to f32).
BASE_FLAGS = ["--iree-input-demote-f64-to-f32=false", "--iree-llvmcpu-target-cpu=host"]


def pack(array, bits):
    """The values of `array` (any shape) as IREE's packed bytes."""
    per_byte = 8 // bits
    values = array.reshape(-1).astype(np.int64) & ((1 << bits) - 1)
    values = np.concatenate([values, np.zeros(-len(values) % per_byte, np.int64)])
    lanes = values.reshape(-1, per_byte) << (np.arange(per_byte) * bits)
    return lanes.sum(axis=1).astype(np.uint8)


def unpack(packed, bits, signed, count):
    """The first `count` values held in IREE's packed bytes."""
    per_byte = 8 // bits
    shifts = np.arange(per_byte) * bits
    values = ((packed.astype(np.int64)[:, None] >> shifts) & ((1 << bits) - 1)).reshape(-1)
    values = values[:count]
    if signed:
        values = np.where(values >= 1 << (bits - 1), values - (1 << bits), values)
    return values


def to_runtime(array, element_type, device):
    if element_type in VIEWED:
        return array.view(VIEWED[element_type])
    if element_type in PACKED:
        import iree.runtime
        bits, signed = PACKED[element_type]
        data = pack(array, bits)
        if data.size == 0:  # IREE allocates no empty buffer from host memory
            data = np.zeros(1, np.uint8)
        buffer = device.allocator.allocate_buffer_copy(
            memory_type=iree.runtime.MemoryType.DEVICE_LOCAL,
            allowed_usage=iree.runtime.BufferUsage.DEFAULT, device=device, buffer=data)
        return iree.runtime.HalBufferView(buffer, list(array.shape),
                                          (HAL_NUMERICAL_TYPE[signed] << 24) | bits)
    return array


def from_runtime(output, result):
    """A result of @main as a NumPy array of the result's element type (not
    yet in the container's dtype)."""
    element_type = result["element_type"]
    if element_type not in PACKED:
        return np.asarray(output)
    bits, signed = PACKED[element_type]
    view = output._buffer_view  # no NumPy dtype to map to: read the bytes
    shape = list(view.shape)
    count = int(np.prod(shape, dtype=np.int64))
    packed = view.map().asarray([view.byte_length], np.dtype(np.uint8)) if count else \
        np.zeros(0, np.uint8)
    return unpack(np.array(packed), bits, signed, count).reshape(shape)


def to_container(array, result):
    element_type = result["element_type"]
    if element_type in VIEWED:
        # copy(order="C"), not ascontiguousarray, which makes a 0-d array 1-d.
        array = array.astype(VIEWED[element_type]).copy(order="C")
        return array.view(np.dtype(result["npy_dtype"]))
    return array.astype(np.dtype(result["npy_dtype"])).copy(order="C")


class Driver:
    def __init__(self, target, device):
        import iree.compiler
        import iree.runtime
        self.compiler = iree.compiler
        self.runtime = iree.runtime
        self.target = target
        self.device_name = device
        self.config = iree.runtime.Config(device=iree.runtime.get_device(device))
        self.contexts = collections.OrderedDict()  # module hash -> main function

    def compiled(self, text, options):
        flags = BASE_FLAGS + options.get("compile_flags", "").split()
        target = options.get("target", self.target)
        key = hashlib.sha256((target + " ".join(flags) + text).encode()).hexdigest()
        if key in self.contexts:
            self.contexts.move_to_end(key)
            return self.contexts[key]
        vmfb = self.compiler.compile_str(text, target_backends=[target], input_type="stablehlo",
                                         extra_args=flags)
        context = self.runtime.SystemContext(config=self.config)
        module = self.runtime.VmModule.copy_buffer(context.instance, vmfb)
        context.add_vm_module(module)
        main = context.modules[module.name]["main"]
        self.contexts[key] = (context, main)
        if len(self.contexts) > 256:  # hlocheck runs a module it saw before alone
            self.contexts.popitem(last=False)
        return self.contexts[key]

    def run(self, request_path):
        with open(request_path) as f:
            request = json.load(f)
        if request.get("protocol") != 1:
            raise ValueError(f"protocol {request.get('protocol')} is not 1")
        with open(request["module"]) as f:
            text = f.read()
        _, main = self.compiled(text, request.get("options", {}))
        inputs = [to_runtime(np.load(i["file"]), i["element_type"], self.config.device)
                  for i in request["inputs"]]
        outputs = main(*inputs)
        # IREE's Python runtime returns None for a function without results
        # (a case whose results are none, or tokens only), the value itself
        # for one result, and a list for several.
        if outputs is None:
            outputs = []
        elif not isinstance(outputs, (list, tuple)):
            outputs = [outputs]
        results = request["results"]
        if len(outputs) != len(results):
            raise ValueError(f"@main returned {len(outputs)} values, the case has {len(results)}")
        for output, result in zip(outputs, results):
            np.save(result["file"], to_container(from_runtime(output, result), result),
                    allow_pickle=False)


def compiler_signal(error):
    """The signal that killed iree-compile, if the error says it died of
    one (CompilerToolError's "Error code: -11"), else None."""
    if type(error).__name__ != "CompilerToolError":
        return None
    match = re.search(r"Error code: (-\d+)", str(error))
    return -int(match.group(1)) if match else None


def describe_signal(number):
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="llvm-cpu")
    parser.add_argument("--device", default="local-task")
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("request", nargs="?")
    args = parser.parse_args()
    # Replies go to the real stdout; anything else printing there (a
    # library) goes to stderr instead.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    driver = Driver(args.target, args.device)
    if not args.worker:
        if not args.request:
            parser.error("a request file, or --worker")
        try:
            driver.run(args.request)
        except Exception as e:  # the compiler's or runtime's error: the case's error
            print(f"{type(e).__name__}: {e}", file=sys.stderr)
            number = compiler_signal(e)
            if number is not None:
                # The protocol's word for a crash in oneshot mode: die of
                # the same signal (without a core file).
                sys.stderr.flush()
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                signal.signal(number, signal.SIG_DFL)
                os.kill(os.getpid(), number)
            return 1
        return 0
    for line in sys.stdin:
        request = json.loads(line)["request"]
        try:
            driver.run(request)
            reply = {"ok": True}
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            reply = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            number = compiler_signal(e)
            if number is not None:
                reply["crash"] = f"iree-compile died of {describe_signal(number)}"
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
