LTT_CMD(version)
