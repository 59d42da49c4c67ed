#!/usr/bin/env node
// Makes pwa/models/selfie_segmenter_landscape.tflite (committed; run this again only to remake it):
// MediaPipe's legacy landscape selfie-segmentation model (npm @mediapipe/selfie_segmentation,
// Apache-2.0) with the TFLite model metadata (tflite-support's "M001" schema) that
// @mediapipe/tasks-vision's ImageSegmenter requires; tasks' own model files are not on npm.
//
// Needs:
//   * Node >= 20.15 (zlib.crc32); no npm dependencies beyond the source model
//   * flatc from Debian's `flatbuffers-compiler` (tested with 2.0.8; env FLATC overrides):
//       apt-get update && apt-get install -y flatbuffers-compiler
//   * beside this script:
//       schema.fbs           TFLite model schema, tensorflow/tflite-micro @ 28389e0ff0e0ed09b0b895770e0ac683e98e1768
//                            path tensorflow/lite/schema/schema.fbs (newer copies use
//                            "(deprecated)" on enum values, which flatc 2.0.8 cannot parse)
//       metadata_schema.fbs  tensorflow/tflite-support @ dd3362ea685bb7ab1f7268c81ec567d3b720ae57
//                            path tensorflow_lite_support/metadata/metadata_schema.fbs (schema 1.5.0)
//   * the legacy model in node_modules/@mediapipe/selfie_segmentation (or $SELFIE_DIR)
//
// Usage: node scripts/segmenter-model/make-model.mjs
//        NO_LABELS=1 node scripts/segmenter-model/make-model.mjs   (without the packed labels.txt)
//
// What it does (the same result tflite-support's image_segmenter MetadataWriter produces):
//   1. flatc: model .tflite -> JSON (lossless here: the model has no float scalars outside byte buffers)
//   2. builds a ModelMetadata JSON; flatc -> binary with file identifier "M001"
//   3. appends that binary as a new model buffer and adds {name:"TFLITE_METADATA", buffer:i}
//      to Model.metadata; flatc JSON -> .tflite ("TFL3")
//   4. appends labels.txt ("person") as an uncompressed zip after the flatbuffer, as
//      tflite-support's MetadataPopulator does for associated files
//   5. self-checks: decodes the result again, compares all original buffers/ops/tensors,
//      decodes the metadata buffer
//
// Preprocessing facts (mediapipe/modules/selfie_segmentation/selfie_segmentation_cpu.pbtxt):
//   ImageToTensorCalculator output_tensor_float_range {min: 0.0 max: 1.0}, keep_aspect_ratio: false
//   -> NormalizationOptions mean [0], std [255]; stats min [0], max [1].
//   TensorsToSegmentationCalculator activation: NONE — the graph ends in LOGISTIC, so the
//   output already is a person probability; no SEGMENTER_METADATA custom metadata needed
//   (tasks' default activation is NONE), which keeps min_parser_version at 1.0.0.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const FLATC = process.env.FLATC || 'flatc';
const SCHEMA = path.join(here, 'schema.fbs');
const META_SCHEMA = path.join(here, 'metadata_schema.fbs');
const root = path.resolve(here, '../..');
const OUT_DIR = path.join(root, 'pwa/models');
const WITH_LABELS = !process.env.NO_LABELS;

const candidates = [process.env.SELFIE_DIR, path.join(root, 'node_modules/@mediapipe/selfie_segmentation')].filter(Boolean);
const SRC_DIR = candidates.find((d) => fs.existsSync(path.join(d, 'selfie_segmentation_landscape.tflite')));
if (!SRC_DIR) throw new Error(`legacy models not found in: ${candidates.join(', ')}`);

const MODELS = [
  {
    src: 'selfie_segmentation_landscape.tflite',
    out: 'selfie_segmenter_landscape.tflite',
    name: 'SelfieSegmenterLandscape',
    h: 144,
    w: 256,
  },
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'segmodel-'));
const flatc = (...args) => execFileSync(FLATC, ['--no-warnings', ...args], { cwd: tmp, stdio: ['ignore', 'pipe', 'inherit'] });

function toJson(schema, binPath) {
  flatc('--json', '--strict-json', '--raw-binary', '-o', tmp, schema, '--', binPath);
  const jsonPath = path.join(tmp, path.basename(binPath).replace(/\.[^.]+$/, '') + '.json');
  return JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
}
function toBinary(schema, obj, base, ext) {
  const jsonPath = path.join(tmp, base + '.json');
  fs.writeFileSync(jsonPath, JSON.stringify(obj));
  flatc('-b', '-o', tmp, schema, jsonPath);
  const produced = path.join(tmp, base + '.' + ext);
  return fs.readFileSync(produced);
}

// tflite-support metadata_writers: InputImageTensorMd / image_segmenter.py
function buildMetadata(m, inputName, outputName) {
  const mean = [0.0],
    std = [255.0];
  const md = {
    name: m.name,
    description:
      `Person (selfie) segmentation, ${m.w}x${m.h} RGB input, one-channel person ` +
      'probability mask. Legacy MediaPipe Selfie Segmentation model with TFLite metadata added.',
    version: 'v1',
    author: 'Google (MediaPipe); metadata added by make-model.mjs',
    license: 'Apache License. Version 2.0 http://www.apache.org/licenses/LICENSE-2.0.',
    subgraph_metadata: [
      {
        input_tensor_metadata: [
          {
            name: 'image',
            description: `Input image to be segmented (tensor "${inputName}", float32 [1,${m.h},${m.w},3], RGB in [0,1]).`,
            content: {
              content_properties_type: 'ImageProperties',
              content_properties: { color_space: 'RGB' },
            },
            process_units: [
              {
                options_type: 'NormalizationOptions',
                options: { mean, std },
              },
            ],
            stats: {
              max: mean.map((mu, i) => (255 - mu) / std[i]),
              min: mean.map((mu, i) => (0 - mu) / std[i]),
            },
          },
        ],
        output_tensor_metadata: [
          {
            name: 'segmentation_masks',
            description: `Person probability mask (tensor "${outputName}", float32 [1,${m.h},${m.w},1], sigmoid already applied in-graph).`,
            content: {
              content_properties_type: 'ImageProperties',
              content_properties: { color_space: 'GRAYSCALE' },
              range: { min: 1, max: 2 },
            },
            stats: { max: [1.0], min: [0.0] },
            ...(WITH_LABELS
              ? {
                  associated_files: [
                    {
                      name: 'labels.txt',
                      description: 'Labels for categories that the model can recognize.',
                      type: 'TENSOR_AXIS_LABELS',
                    },
                  ],
                }
              : {}),
          },
        ],
      },
    ],
    // Only 1.0.0 features are used (no subgraph process units, tensor groups, custom
    // metadata, VOCABULARY/SCANN files, file versions) -> per tflite-support's
    // metadata_version.cc the minimum parser version is 1.0.0.
    min_parser_version: '1.0.0',
  };
  return md;
}

// Minimal uncompressed (STORED) zip, appended after the flatbuffer like Python's
// zipfile 'a' mode on a non-zip file does (offsets relative to the file start).
/** Little-endian fields, each [bytes (2 or 4), value], as one buffer. */
function le(fields) {
  const out = Buffer.alloc(fields.reduce((n, [bytes]) => n + bytes, 0));
  let at = 0;
  for (const [bytes, value] of fields) at = bytes === 2 ? out.writeUInt16LE(value, at) : out.writeUInt32LE(value, at);
  return out;
}

function appendZip(head, files) {
  const parts = [head];
  let offset = head.length;
  const central = [];
  const DOS_DATE = 0x21; // 1980-01-01
  for (const [name, data] of files) {
    const nameBuf = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data) >>> 0;
    // flags, method (stored), time, date, crc, sizes, name length
    const common = [
      [2, 0],
      [2, 0],
      [2, 0],
      [2, DOS_DATE],
      [4, crc],
      [4, data.length],
      [4, data.length],
      [2, nameBuf.length],
    ];
    const local = le([[4, 0x04034b50], [2, 20], ...common, [2, 0]]);
    // + extra, comment, disk, internal and external attributes, the local header's offset
    const cd = le([[4, 0x02014b50], [2, 20], [2, 20], ...common, [2, 0], [2, 0], [2, 0], [2, 0], [4, 0], [4, offset]]);
    central.push(cd, nameBuf);
    parts.push(local, nameBuf, data);
    offset += local.length + nameBuf.length + data.length;
  }
  const cdBuf = Buffer.concat(central);
  const eocd = le([
    [4, 0x06054b50],
    [2, 0],
    [2, 0],
    [2, files.length],
    [2, files.length],
    [4, cdBuf.length],
    [4, offset],
    [2, 0],
  ]);
  return Buffer.concat([...parts, cdBuf, eocd]);
}

const assert = (c, msg) => {
  if (!c) throw new Error('self-check failed: ' + msg);
};
fs.mkdirSync(OUT_DIR, { recursive: true });

for (const m of MODELS) {
  const srcPath = path.join(SRC_DIR, m.src);
  const work = path.join(tmp, 'src_' + m.src);
  fs.copyFileSync(srcPath, work);
  const model = toJson(SCHEMA, work);
  const orig = JSON.parse(JSON.stringify(model));
  const sg = model.subgraphs[0];
  assert(model.subgraphs.length === 1 && sg.inputs.length === 1 && sg.outputs.length === 1, 'one subgraph, 1 in, 1 out');
  const inT = sg.tensors[sg.inputs[0]],
    outT = sg.tensors[sg.outputs[0]];
  assert(JSON.stringify(inT.shape) === JSON.stringify([1, m.h, m.w, 3]) && !inT.type, `input float32 [1,${m.h},${m.w},3]`);
  assert(JSON.stringify(outT.shape) === JSON.stringify([1, m.h, m.w, 1]) && !outT.type, 'output float32 1-channel');
  const lastOp = sg.operators.find((op) => op.outputs.includes(sg.outputs[0]));
  const lastCode = model.operator_codes[lastOp.opcode_index].builtin_code;
  assert(lastCode === 'LOGISTIC', 'output produced by LOGISTIC (sigmoid in-graph)');
  assert(!(model.metadata || []).some((e) => e.name === 'TFLITE_METADATA'), 'no TFLITE_METADATA yet');

  const mdObj = buildMetadata(m, inT.name, outT.name);
  const mdBin = toBinary(META_SCHEMA, mdObj, m.name + '_metadata', 'tflitemeta');
  assert(mdBin.toString('latin1', 4, 8) === 'M001', 'metadata identifier M001');

  const bufIndex = model.buffers.length;
  model.buffers.push({ data: [...mdBin] });
  model.metadata = [...(model.metadata || []), { name: 'TFLITE_METADATA', buffer: bufIndex }];
  let tflite = toBinary(SCHEMA, model, m.name, 'tflite');
  assert(tflite.toString('latin1', 4, 8) === 'TFL3', 'model identifier TFL3');

  // Self-check: decode again and compare with the original.
  const chkPath = path.join(tmp, 'chk_' + m.out);
  fs.writeFileSync(chkPath, tflite);
  const back = toJson(SCHEMA, chkPath);
  const entry = back.metadata.find((e) => e.name === 'TFLITE_METADATA');
  assert(Buffer.from(back.buffers[entry.buffer].data).equals(mdBin), 'metadata buffer round-trips');
  back.buffers.splice(entry.buffer, 1);
  back.metadata = back.metadata.filter((e) => e !== entry);
  if (!back.metadata.length) delete back.metadata;
  assert(JSON.stringify(back) === JSON.stringify(orig), 'model otherwise identical to the original');
  const mdPath = path.join(tmp, 'chk_' + m.name + '.tflitemeta');
  fs.writeFileSync(mdPath, mdBin);
  const mdBack = toJson(META_SCHEMA, mdPath);
  assert(mdBack.subgraph_metadata[0].input_tensor_metadata[0].process_units[0].options.std[0] === 255, 'std 255');

  if (WITH_LABELS) tflite = appendZip(tflite, [['labels.txt', Buffer.from('person\n')]]);
  const outPath = path.join(OUT_DIR, m.out);
  fs.writeFileSync(outPath, tflite);
  console.log(
    `${outPath}: ${tflite.length} bytes (source ${m.src} ${fs.statSync(srcPath).size} bytes, ` +
      `metadata ${mdBin.length} bytes at buffer ${bufIndex}${WITH_LABELS ? ', labels.txt zip appended' : ''})`,
  );
}
fs.rmSync(tmp, { recursive: true, force: true });
