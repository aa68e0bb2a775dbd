// Runs .tflite models through the TFLite runtime compiled to WebAssembly
// (@tensorflow/tfjs-tflite), loading its Emscripten module directly so no
// browser and no tfjs-core are needed.
//
// usage: node referee.js MANIFEST [MODULES_DIR]
// Each MANIFEST line: MODEL.tflite INPUT.bin OUTPUT.bin — the raw bytes of
// INPUT.bin fill input 0, one inference runs, and output 0's raw bytes are
// written to OUTPUT.bin (and its type and shape to OUTPUT.bin.txt).
// The runtime delegates the int8 CONV_2D / DEPTHWISE_CONV_2D / ADD to XNNPACK.
'use strict';
const fs = require('fs');
const path = require('path');

function fail(msg) {
  process.stderr.write('referee.js: ' + msg + '\n');
  process.exit(2);
}

async function main() {
  const manifest = process.argv[2];
  if (!manifest) fail('usage: node referee.js MANIFEST [MODULES_DIR]');
  const modules = process.argv[3] || path.join(__dirname, 'node_modules');
  const wasmDir = path.join(modules, '@tensorflow', 'tfjs-tflite', 'wasm');
  // COSIM_REFEREE_FLAVOR=simd picks the WebAssembly SIMD build of the runtime.
  const flavor = process.env.COSIM_REFEREE_FLAVOR === 'simd' ? '_simd' : '';
  const js = path.join(wasmDir, 'tflite_web_api_cc' + flavor + '.js');
  if (!fs.existsSync(js)) fail('runtime not found at ' + js + ' (run tests/tflite/referee/install.sh)');
  const factory = require(js);
  // Node's global fetch cannot load a file path, so hand the binary over.
  const log = [];
  const M = await factory({
    wasmBinary: fs.readFileSync(path.join(wasmDir, 'tflite_web_api_cc' + flavor + '.wasm')),
    locateFile: (p) => path.join(wasmDir, p),
    print: (s) => log.push(s),
    printErr: (s) => log.push(s),
  });
  const lines = fs.readFileSync(manifest, 'utf8').split('\n').filter((l) => l.trim() !== '');
  for (const line of lines) {
    const [modelPath, inputPath, outputPath] = line.trim().split(/\s+/);
    const bytes = new Uint8Array(fs.readFileSync(modelPath));
    const ptr = M._malloc(bytes.length);
    M.HEAPU8.set(bytes, ptr);
    const created = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(ptr, bytes.length, {
      numThreads: 1,
      enableProfiling: false,
      maxProfilingBufferEntries: 1024,
    });
    if (!created.ok()) fail(modelPath + ': cannot create the runner: ' + created.errorMessage());
    const runner = created.value();
    const inputs = runner.GetInputs();
    const input = inputs.get(0).data();
    const inBytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    const given = fs.readFileSync(inputPath);
    if (given.length !== inBytes.length)
      fail(inputPath + ': ' + given.length + ' bytes, the model input needs ' + inBytes.length);
    inBytes.set(given);
    if (!runner.Infer()) fail(modelPath + ': inference failed: ' + log.join(' | '));
    const out = runner.GetOutputs().get(0);
    const d = out.data();
    fs.writeFileSync(outputPath, Buffer.from(new Uint8Array(d.buffer, d.byteOffset, d.byteLength)));
    fs.writeFileSync(outputPath + '.txt', out.dataType + ' ' + out.shape + '\n');
    runner.delete();
    M._free(ptr);
  }
  if (process.env.REFEREE_VERBOSE) process.stderr.write(log.join('\n') + '\n');
}

main().catch((e) => fail(String(e && e.stack ? e.stack : e)));
