#!/usr/bin/env node
console.log('sparql-jsonapi: under construction');
