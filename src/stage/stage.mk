# fragment: src/stage/stage.mk
